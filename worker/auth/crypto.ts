// WebCrypto primitives for identity: PBKDF2 password hashes, random tokens, SHA-256 token hashes.
import { fromBase64, toBase64 } from "../../core/base64";

const encoder = new TextEncoder();
// Workers cap PBKDF2 at 100,000 iterations; the stored hash names its iteration count so it can grow.
const PBKDF2_ITERATIONS = 100_000;

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

async function pbkdf2(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

/** `pbkdf2-sha256$<iterations>$<salt>$<hash>` */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await pbkdf2(password, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split("$");
  if (scheme !== "pbkdf2-sha256" || !iterations || !salt || !hash) return false;
  const actual = await pbkdf2(password, fromBase64(salt), Number(iterations));
  const expected = fromBase64(hash);
  return actual.length === expected.length && crypto.subtle.timingSafeEqual(actual, expected);
}

/** A burned-in hash so an unknown username costs the same time as a wrong password. */
export const DUMMY_PASSWORD_HASH =
  "pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

/** A secret: `<prefix>_<64 hex>`, or with `shard` the shard it is kept in, `<prefix>_s<shard>_<64 hex>` (d1/shards.ts). */
export function randomToken(prefix: string, shard?: number): string {
  const mark = shard === undefined ? "" : `s${shard}_`;
  return `${prefix}_${mark}${toHex(crypto.getRandomValues(new Uint8Array(32)))}`;
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text))));
}
