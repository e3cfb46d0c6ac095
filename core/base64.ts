// Bytes to base64 and back, for what WebCrypto hands out (salts, hashes, sealed secrets, random ids).
// One copy: the chunked encoding a large value needs is written once, not beside every caller.
const CHUNK = 0x2000;

/** A chunk at a time: spreading every byte as one call's arguments overflows the stack past ~100 KB. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += CHUNK) binary += String.fromCharCode(...bytes.subarray(at, at + CHUNK));
  return btoa(binary);
}

export const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

/** The URL- and filename-safe alphabet (RFC 4648 §5), without padding: for ids in links and OAuth state. */
export const toBase64Url = (bytes: Uint8Array): string =>
  toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

/** base64url (with or without padding) to bytes: web push keys and VAPID keys come this way (RFC 8291, 8292). */
export const fromBase64Url = (text: string): Uint8Array =>
  fromBase64(
    text
      .replaceAll("-", "+")
      .replaceAll("_", "/")
      .padEnd(Math.ceil(text.length / 4) * 4, "="),
  );
