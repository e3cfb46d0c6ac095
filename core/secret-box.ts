// Secrets at rest: AES-256-GCM under a key derived (HKDF-SHA-256) from the SECRETS_KEY Worker secret.
// Each sealed value names its format version and is bound to where it is stored (the additional data,
// e.g. user and row id), so a sealed value copied to another row or user does not open.
import { fromBase64, toBase64 } from "./base64";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const VERSION = "v1";

/** The Worker has no SECRETS_KEY (or a too short one): it refuses to store a secret rather than keep it in clear. */
export class SecretsKeyMissing extends Error {
  override name = "SecretsKeyMissing";
  constructor() {
    super("The server cannot store secrets: its SECRETS_KEY is not set (wrangler secret put SECRETS_KEY)");
  }
}

const MIN_KEY_CHARS = 32;
const keys = new Map<string, Promise<CryptoKey>>();

function aesKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret || secret.length < MIN_KEY_CHARS) return Promise.reject(new SecretsKeyMissing());
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"])
      .then((material) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: encoder.encode("oracle/secret-box"), info: encoder.encode(VERSION) },
          material,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(secret, key);
  }
  return key;
}

/** `v1.<iv>.<ciphertext>` (base64), readable only with the same key and the same `boundTo`. */
export async function sealSecret(secretsKey: string | undefined, plaintext: string, boundTo: string): Promise<string> {
  const key = await aesKey(secretsKey);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(boundTo) },
    key,
    encoder.encode(plaintext),
  );
  return `${VERSION}.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

/** The plaintext, or an error when the key, the binding or the bytes differ from what sealed it. */
export async function openSecret(secretsKey: string | undefined, sealed: string, boundTo: string): Promise<string> {
  const [version, iv, data] = sealed.split(".");
  if (version !== VERSION || !iv || !data) throw new Error("not a sealed secret");
  const key = await aesKey(secretsKey);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(iv), additionalData: encoder.encode(boundTo) },
    key,
    fromBase64(data),
  );
  return decoder.decode(plain);
}
