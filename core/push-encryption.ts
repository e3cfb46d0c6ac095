// A web push message's payload encrypted for one browser, as RFC 8291 says (the "aes128gcm" content
// coding of RFC 8188, one record): only the subscribed browser can read it, never the push service
// that carries it. WebCrypto only, so it runs in the Worker as in Node (test/node/web-push.test.ts
// checks it byte for byte against the RFC's own example).
import { concatBytes as concat } from "./bytes";

/** The browser's half of a subscription (PushSubscription.getKey): its P-256 public key and auth secret. */
export interface PushKeys {
  /** The uncompressed point (65 bytes, 0x04 first). */
  p256dh: Uint8Array;
  /** 16 random bytes. */
  auth: Uint8Array;
}

/** The sender's one-time key pair and salt: random for every message; tests give the RFC's. */
export interface PushSender {
  publicKey: Uint8Array;
  privateKey: CryptoKey;
  salt: Uint8Array;
}

/** The record size the header announces: the whole message is one record, so any size that holds it. */
const RECORD_SIZE = 4096;
/** A push service takes at most 4096 bytes of body; header (86) and tag (16) leave this for the text. */
export const MAX_PUSH_PLAINTEXT = RECORD_SIZE - 86 - 16 - 1;

const text = new TextEncoder();

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bytes: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", concat(ikm), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: concat(salt), info: concat(info) },
    key,
    bytes * 8,
  );
  return new Uint8Array(bits);
}

/** A fresh sender key pair and salt for one message. */
export async function newPushSender(): Promise<PushSender> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const publicKey = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  return { publicKey, privateKey: pair.privateKey, salt: crypto.getRandomValues(new Uint8Array(16)) };
}

/**
 * The request body for `plaintext`: salt ‖ record size ‖ key id length ‖ the sender's public key, then
 * the one record (the text, the last-record delimiter 0x02) sealed with AES-128-GCM under a key and
 * nonce derived from the ECDH secret and the browser's auth secret (RFC 8291 §3.3–3.4).
 */
export async function encryptPushPayload(
  plaintext: Uint8Array,
  keys: PushKeys,
  sender?: PushSender,
): Promise<Uint8Array> {
  if (plaintext.length > MAX_PUSH_PLAINTEXT)
    throw new Error(`a push payload holds at most ${MAX_PUSH_PLAINTEXT} bytes`);
  const { publicKey, privateKey, salt } = sender ?? (await newPushSender());
  const browserKey = await crypto.subtle.importKey(
    "raw",
    concat(keys.p256dh),
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  // `public`, as WebCrypto names it (workers-types spell it `$public`, which no runtime reads).
  const ecdh = { name: "ECDH", public: browserKey } as unknown as Parameters<SubtleCrypto["deriveBits"]>[0];
  const shared = new Uint8Array(await crypto.subtle.deriveBits(ecdh, privateKey, 256));
  const keyInfo = concat(text.encode("WebPush: info\0"), keys.p256dh, publicKey);
  const ikm = await hkdf(keys.auth, shared, keyInfo, 32);
  const cek = await hkdf(salt, ikm, text.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, text.encode("Content-Encoding: nonce\0"), 12);
  const aes = await crypto.subtle.importKey("raw", concat(cek), "AES-GCM", false, ["encrypt"]);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv: concat(nonce) },
    aes,
    concat(plaintext, Uint8Array.of(2)),
  );
  const header = new Uint8Array(21);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = publicKey.length;
  return concat(header, publicKey, new Uint8Array(sealed));
}
