// The browser's side of web push, for tests: a subscription's keys (P-256 pair and auth secret), and the
// decryption of an RFC 8291 (aes128gcm) body with them, written with node:crypto, apart from the
// Worker's WebCrypto sender (core/push-encryption.ts), so a test of one is not a test of itself. Also
// the check of a VAPID `Authorization` header (RFC 8292) against the public key it names.
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, verify } from "node:crypto";

export interface Receiver {
  /** As a browser's PushSubscription.toJSON() gives them: base64url. */
  p256dh: string;
  auth: string;
  /** Decrypts a push message's body sent to this subscription. */
  decrypt(body: Buffer): Buffer;
}

/** A subscription's keys, fresh, or the ones given (the RFC's example). */
export function pushReceiver(given?: { privateKey: string; auth: string }): Receiver {
  const ecdh = createECDH("prime256v1");
  if (given) ecdh.setPrivateKey(Buffer.from(given.privateKey, "base64url"));
  else ecdh.generateKeys();
  const publicKey = ecdh.getPublicKey();
  const auth = given ? Buffer.from(given.auth, "base64url") : Buffer.from(crypto.getRandomValues(new Uint8Array(16)));
  return {
    p256dh: publicKey.toString("base64url"),
    auth: auth.toString("base64url"),
    decrypt(body) {
      const salt = body.subarray(0, 16);
      const idLength = body[20] ?? 0;
      const senderKey = body.subarray(21, 21 + idLength);
      const sealed = body.subarray(21 + idLength);
      const shared = ecdh.computeSecret(senderKey);
      const info = Buffer.concat([Buffer.from("WebPush: info\0"), publicKey, senderKey]);
      const ikm = Buffer.from(hkdfSync("sha256", shared, auth, info, 32));
      const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
      const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
      const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      const padded = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
      // The last record ends with 0x02, then any zero padding.
      const end = padded.lastIndexOf(2);
      if (end < 0 || padded.subarray(end + 1).some((b) => b !== 0)) throw new Error("no last-record delimiter");
      return padded.subarray(0, end);
    },
  };
}

export interface VapidToken {
  header: { typ?: string; alg?: string };
  claims: { aud?: string; exp?: number; sub?: string };
  /** The `k=` of the header: the public key that signed it. */
  key: string;
}

/** Reads `vapid t=…, k=…` and checks the token's ES256 signature with `k`; throws where it does not hold. */
export function verifyVapid(authorization: string): VapidToken {
  const match = authorization.match(/^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/);
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [header, claims, signature] = match[1].split(".") as [string, string, string];
  const point = Buffer.from(match[2], "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!signed) throw new Error("the VAPID token's signature does not hold");
  const read = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  return { header: read(header), claims: read(claims), key: match[2] };
}
