// What a test needs to know of the tiny issuers (tiny-issuer.ts), without Node: its client, its modes,
// and where the workers global setup provides it. Imported inside workerd as well as in Node.

declare module "vitest" {
  interface ProvidedContext {
    /** test/support/tiny-issuer.ts, e.g. "http://127.0.0.1:43127"; an issuer is `${tinyIssuerUrl}/<mode>`. */
    tinyIssuerUrl: string;
  }
}

export const TINY_CLIENT = { id: "tiny-client", secret: "tiny-secret" };

/**
 * What each issuer gets wrong in its ID token (`good`: nothing); `userinfo` keeps the email and username
 * out of the ID token and serves them at UserInfo, and `userinfo_other` serves another subject's there.
 */
export const TINY_MODES = [
  "good",
  "forged",
  "wrong_aud",
  "wrong_iss",
  "expired",
  "wrong_nonce",
  "alg_none",
  "userinfo",
  "userinfo_other",
] as const;
export type TinyMode = (typeof TINY_MODES)[number];
