// A software WebAuthn authenticator for tests that have no browser (test/workers/passkeys.test.ts): it
// answers the options the Worker gives as a browser with a platform authenticator would, as
// @simplewebauthn/browser hands the answer over (JSON, base64url). ES256 keys from WebCrypto; the
// registration's attestationObject is CBOR ("none" format, authenticator data with the credential's
// COSE key); an assertion signs authenticatorData ‖ SHA-256(clientDataJSON), DER-encoded as WebAuthn
// wants. Its passkeys are discoverable: `get` without allowCredentials picks this RP's newest one.
import { fromBase64Url, toBase64Url } from "../../core/base64";
import { concatBytes as concat } from "../../core/bytes.ts";

interface Credential {
  id: Uint8Array;
  rpId: string;
  userHandle: string;
  keys: CryptoKeyPair;
  counter: number;
}

type Json = Record<string, unknown>;

const encoder = new TextEncoder();
type Bytes = Uint8Array<ArrayBuffer>;
const sha256 = async (bytes: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
const uint32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

/** CBOR (RFC 8949) for what WebAuthn needs: integers, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;
function cbor(value: Cbor): Uint8Array {
  const head = (major: number, n: number) =>
    n < 24
      ? new Uint8Array([(major << 5) | n])
      : n < 256
        ? new Uint8Array([(major << 5) | 24, n])
        : new Uint8Array([(major << 5) | 25, n >> 8, n & 255]);
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = encoder.encode(value);
    return concat(head(3, bytes.length), bytes);
  }
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  return concat(head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]));
}

/** A raw ECDSA signature (r ‖ s) as ASN.1 DER, which WebAuthn assertions carry. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (half: Uint8Array) => {
    let i = 0;
    while (i < half.length - 1 && half[i] === 0) i++;
    const trimmed = half.slice(i);
    const body = (trimmed[0] ?? 0) & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  /** Answers registration options (`navigator.credentials.create`) from `origin`. */
  async create(options: Json, origin: string): Promise<Json> {
    const rp = options.rp as { id: string };
    const user = options.user as { id: string };
    const id = crypto.getRandomValues(new Uint8Array(16));
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    this.credentials.push({ id, rpId: rp.id, userHandle: user.id, keys, counter: 0 });
    const jwk = (await crypto.subtle.exportKey("jwk", keys.publicKey)) as JsonWebKey;
    const coseKey = new Map<Cbor, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, fromBase64Url(jwk.x ?? "")],
      [-3, fromBase64Url(jwk.y ?? "")],
    ]);
    const attested = concat(new Uint8Array(16), new Uint8Array([0, id.length]), id, cbor(coseKey));
    const authData = concat(await sha256(encoder.encode(rp.id)), new Uint8Array([UP | UV | AT]), uint32(0), attested);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const clientData = clientDataJSON("webauthn.create", options.challenge as string, origin);
    return credentialJson(id, {
      clientDataJSON: toBase64Url(clientData),
      attestationObject: toBase64Url(attestationObject),
      transports: ["internal"],
    });
  }

  /** Answers authentication options (`navigator.credentials.get`) from `origin`, with `credential` if given. */
  async get(options: Json, origin: string, credential?: Credential): Promise<Json> {
    const allowed = (options.allowCredentials as { id: string }[] | undefined)?.map((c) => c.id);
    const usable = this.credentials.filter(
      (c) => c.rpId === options.rpId && (!allowed?.length || allowed.includes(toBase64Url(c.id))),
    );
    const chosen = credential ?? usable.at(-1);
    if (!chosen) throw new Error("NotAllowedError: no passkey for this site");
    chosen.counter += 1;
    const authData = concat(
      await sha256(encoder.encode(chosen.rpId)),
      new Uint8Array([UP | UV]),
      uint32(chosen.counter),
    );
    const clientData = clientDataJSON("webauthn.get", options.challenge as string, origin);
    const signed = concat(authData, await sha256(clientData));
    const raw = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, chosen.keys.privateKey, signed);
    return credentialJson(chosen.id, {
      clientDataJSON: toBase64Url(clientData),
      authenticatorData: toBase64Url(authData),
      signature: toBase64Url(derSignature(new Uint8Array(raw))),
      userHandle: chosen.userHandle,
    });
  }
}

function clientDataJSON(type: string, challenge: string, origin: string): Bytes {
  return new Uint8Array(encoder.encode(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
}

function credentialJson(id: Uint8Array, response: Json): Json {
  const encoded = toBase64Url(id);
  return {
    id: encoded,
    rawId: encoded,
    type: "public-key",
    response,
    clientExtensionResults: {},
    authenticatorAttachment: "platform",
  };
}
