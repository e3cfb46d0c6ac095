// core/push-encryption.ts and core/vapid.ts: what the Worker sends a push service (RFC 8291, RFC 8292),
// checked against the RFC's own example and against a browser's side written apart (web-push-receiver.ts).
import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url } from "../../core/base64";
import { encryptPushPayload, MAX_PUSH_PLAINTEXT } from "../../core/push-encryption";
import { vapidAuthorization, vapidKeys } from "../../core/vapid";
import { pushReceiver, verifyVapid } from "../support/web-push-receiver";

// RFC 8291 Appendix A (published test data, not credentials).
const RFC = {
  plaintext: "When I grow up, I want to be a watermelon",
  senderPublic: "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
  senderPrivate: "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
  receiverPublic: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  receiverPrivate: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
  salt: "DGv6ra1nlYgDCS1FRnbzlw",
  auth: "BTBZMqHH6r4Tts7J_aSIgg",
  body:
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_" +
    "yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
};

async function rfcSender() {
  const point = fromBase64Url(RFC.senderPublic);
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: toBase64Url(point.subarray(1, 33)),
    y: toBase64Url(point.subarray(33)),
    d: RFC.senderPrivate,
  };
  const privateKey = await crypto.subtle.importKey("jwk", jwk, { name: "ECDH", namedCurve: "P-256" }, false, [
    "deriveBits",
  ]);
  return { publicKey: point, privateKey, salt: fromBase64Url(RFC.salt) };
}

const bytes = (s: string) => new TextEncoder().encode(s);

describe("web push encryption (RFC 8291)", () => {
  it("gives the RFC's example body byte for byte", async () => {
    const keys = { p256dh: fromBase64Url(RFC.receiverPublic), auth: fromBase64Url(RFC.auth) };
    const body = await encryptPushPayload(bytes(RFC.plaintext), keys, await rfcSender());
    expect(toBase64Url(body)).toBe(RFC.body);
  });

  it("is read back by a browser's side written apart: the RFC's body, and fresh ones", async () => {
    const rfc = pushReceiver({ privateKey: RFC.receiverPrivate, auth: RFC.auth });
    expect(rfc.p256dh).toBe(RFC.receiverPublic);
    expect(rfc.decrypt(Buffer.from(RFC.body, "base64url")).toString()).toBe(RFC.plaintext);
    const browser = pushReceiver();
    const keys = { p256dh: fromBase64Url(browser.p256dh), auth: fromBase64Url(browser.auth) };
    for (const text of ["", "é ✓ 🍉", "x".repeat(MAX_PUSH_PLAINTEXT)]) {
      const body = await encryptPushPayload(bytes(text), keys);
      expect(body.length).toBeLessThanOrEqual(4096);
      expect(browser.decrypt(Buffer.from(body)).toString()).toBe(text);
    }
    // A fresh sender key and salt every time: the same text never gives the same body.
    const [a, b] = await Promise.all([
      encryptPushPayload(bytes("same"), keys),
      encryptPushPayload(bytes("same"), keys),
    ]);
    expect(toBase64Url(a)).not.toBe(toBase64Url(b));
  });

  it("refuses a text a push service would not carry", async () => {
    const browser = pushReceiver();
    const keys = { p256dh: fromBase64Url(browser.p256dh), auth: fromBase64Url(browser.auth) };
    await expect(encryptPushPayload(new Uint8Array(MAX_PUSH_PLAINTEXT + 1), keys)).rejects.toThrow(/at most/);
  });
});

describe("VAPID (RFC 8292)", () => {
  async function operatorKeys() {
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
    ])) as CryptoKeyPair;
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    const point = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
    return {
      VAPID_PUBLIC_KEY: toBase64Url(point),
      VAPID_PRIVATE_KEY: jwk.d ?? "",
      VAPID_SUBJECT: "mailto:ops@example.com",
    };
  }

  it("signs a token for the push service's origin that the public key verifies", async () => {
    const env = await operatorKeys();
    const keys = await vapidKeys(env);
    if (!keys) throw new Error("the keys were refused");
    const now = Date.parse("2026-05-01T10:00:00Z");
    const header = await vapidAuthorization("https://push.example.net/send/abc?x=1", keys, now);
    const token = verifyVapid(header);
    expect(token.key).toBe(env.VAPID_PUBLIC_KEY);
    expect(token.header).toEqual({ typ: "JWT", alg: "ES256" });
    expect(token.claims.aud).toBe("https://push.example.net");
    expect(token.claims.sub).toBe("mailto:ops@example.com");
    // At most 24 hours ahead (RFC 8292 §2).
    expect(token.claims.exp).toBeGreaterThan(now / 1000);
    expect(token.claims.exp).toBeLessThanOrEqual(now / 1000 + 24 * 3600);
  });

  it("offers no push without all three variables, or with keys of the wrong shape", async () => {
    const env = await operatorKeys();
    expect(await vapidKeys({ ...env, VAPID_SUBJECT: undefined })).toBeUndefined();
    expect(await vapidKeys({ ...env, VAPID_SUBJECT: "ops@example.com" })).toBeUndefined();
    expect(await vapidKeys({ ...env, VAPID_PRIVATE_KEY: "" })).toBeUndefined();
    expect(await vapidKeys({ ...env, VAPID_PUBLIC_KEY: env.VAPID_PUBLIC_KEY.slice(4) })).toBeUndefined();
    expect(await vapidKeys({ ...env, VAPID_PRIVATE_KEY: "not base64 at all!" })).toBeUndefined();
    expect(await vapidKeys(env)).toBeDefined();
  });
});
