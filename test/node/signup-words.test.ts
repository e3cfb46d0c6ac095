// What the sign-in page says about signing up on this server (client/src/pages/auth/signup-policy.ts):
// the form is offered or not per SIGNUP policy and invite link, and a refusal keeps the server's words,
// with a 429's wait in minutes when the words leave it out.
import { describe, expect, it } from "vitest";
import { refusalWords, signupOffer } from "../../client/src/pages/auth/signup-policy.ts";

describe("the sign-up offer", () => {
  it("offers the form when open, with an invite link, or for approval (saying so); not when closed or uninvited", () => {
    expect(signupOffer("open", false)).toEqual({ form: true, words: null });
    expect(signupOffer("closed", true)).toEqual({ form: false, words: "Sign-ups are closed on this server." });
    expect(signupOffer("invite", false).form).toBe(false);
    expect(signupOffer("invite", false).words).toMatch(/need an invite link: ask an administrator/);
    expect(signupOffer("invite", true)).toMatchObject({
      form: true,
      words: expect.stringMatching(/^You were invited/),
    });
    expect(signupOffer("approval", false)).toMatchObject({
      form: true,
      words: expect.stringMatching(/wait for an administrator's approval/),
    });
  });
});

describe("a refused sign-up in words", () => {
  it("keeps the server's message, adding a 429's Retry-After in minutes only when it is not said", () => {
    const closed = { status: 403, message: "Sign-ups are closed on this server" };
    expect(refusalWords(closed)).toBe("Sign-ups are closed on this server");
    const said = {
      status: 429,
      message: "Too many sign-ups from this address; try again in 42 min",
      retryAfterSeconds: 2500,
    };
    expect(refusalWords(said)).toBe(said.message);
    expect(refusalWords({ status: 429, message: "Too many requests.", retryAfterSeconds: 61 })).toBe(
      "Too many requests: try again in 2 min",
    );
    expect(refusalWords({ status: 429, message: "Too many requests", retryAfterSeconds: 5 })).toBe(
      "Too many requests: try again in 1 min",
    );
    expect(refusalWords({ status: 429, message: "Too many requests" })).toBe("Too many requests");
  });
});
