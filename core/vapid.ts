// VAPID (RFC 8292): the Worker proves to a push service which application server sends a message, by
// a short-lived JWT signed with the operator's P-256 key (ES256) in `Authorization: vapid t=…, k=…`.
// The operator's keys are the Worker's variables VAPID_PUBLIC_KEY (the uncompressed point, base64url,
// the key browsers subscribe with) and VAPID_PRIVATE_KEY (the 32-byte scalar, base64url), with
// VAPID_SUBJECT (a mailto: or https: contact); `node scripts/vapid-keys.ts` makes a pair.
import { fromBase64Url, toBase64Url } from "./base64";

export interface VapidKeys {
  /** As browsers take it (`applicationServerKey`): base64url of the 65-byte point. */
  publicKey: string;
  privateKey: CryptoKey;
  subject: string;
}

/** How long a token is good for: RFC 8292 allows at most 24 hours. */
const TOKEN_SECONDS = 12 * 3600;

const json64 = (value: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)));

/**
 * The operator's keys, or undefined where push is not configured (any of the three missing, or keys of
 * the wrong shape): then push is simply not offered.
 */
export async function vapidKeys(env: {
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
}): Promise<VapidKeys | undefined> {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim();
  const secret = env.VAPID_PRIVATE_KEY?.trim();
  const subject = env.VAPID_SUBJECT?.trim();
  if (!publicKey || !secret || !subject || !/^(mailto:|https:)/.test(subject)) return undefined;
  try {
    const point = fromBase64Url(publicKey);
    const d = fromBase64Url(secret);
    if (point.length !== 65 || point[0] !== 4 || d.length !== 32) return undefined;
    const jwk = {
      kty: "EC",
      crv: "P-256",
      x: toBase64Url(point.subarray(1, 33)),
      y: toBase64Url(point.subarray(33)),
      d: toBase64Url(d),
    };
    const privateKey = await crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, [
      "sign",
    ]);
    return { publicKey, privateKey, subject };
  } catch {
    return undefined;
  }
}

/** The `Authorization` header for a request to `endpoint`: the token's audience is the push service's origin. */
export async function vapidAuthorization(endpoint: string, keys: VapidKeys, now = Date.now()): Promise<string> {
  const claims = { aud: new URL(endpoint).origin, exp: Math.floor(now / 1000) + TOKEN_SECONDS, sub: keys.subject };
  const unsigned = `${json64({ typ: "JWT", alg: "ES256" })}.${json64(claims)}`;
  // WebCrypto's ECDSA signature is r ‖ s, 64 bytes: the form JWS (RFC 7518 §3.4) asks for.
  const signature = await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    keys.privateKey,
    new TextEncoder().encode(unsigned),
  );
  return `vapid t=${unsigned}.${toBase64Url(new Uint8Array(signature))}, k=${keys.publicKey}`;
}
