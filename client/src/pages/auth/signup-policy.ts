// Who may sign up on this server (SIGNUP, docs/protocol.md "Administration"), as the sign-in page says it:
// `GET /api/health` names the policy, read once a page load. `open` offers the form as always; `approval`
// offers it, saying new accounts wait for an administrator; `invite` offers it only with an invite link
// (`/signup?invite=<token>`), else says where to get one; `closed` offers no form. The server has the
// last word: whatever it refuses is said by the form (refusalWords).
import { useEffect, useState } from "preact/hooks";
import { z } from "zod";
import { type SignupPolicy, SignupPolicySchema } from "../../../../protocol";
import type { ApiError } from "../../lib/api";
import { requestJson } from "../../lib/api";

/** The part of `GET /api/health` the sign-in page reads. */
const HealthSignupSchema = z.object({ signup: SignupPolicySchema });

let known: Promise<SignupPolicy> | undefined;

// Unreadable (an old server, a glitch): the form is offered, and a refusal says why in the server's words.
async function readPolicy(): Promise<SignupPolicy> {
  const result = await requestJson("/api/health", HealthSignupSchema);
  if (result.ok) return result.data.signup;
  known = undefined;
  return "open";
}

/** The policy, or undefined while it is being read. */
export function useSignupPolicy(): SignupPolicy | undefined {
  const [policy, setPolicy] = useState<SignupPolicy>();
  useEffect(() => {
    let live = true;
    known ??= readPolicy();
    void known.then((read) => live && setPolicy(read));
    return () => {
      live = false;
    };
  }, []);
  return policy;
}

/** The invite token of `/signup?invite=<token>`, if any. */
export function inviteFromLocation(): string | undefined {
  const token = new URLSearchParams(location.search).get("invite")?.trim();
  return token ? token.slice(0, 128) : undefined;
}

export type SignupOffer = {
  /** Whether the sign-up form is offered. */
  form: boolean;
  /** What the page says about signing up here (above the form, or instead of it); null: nothing to say. */
  words: string | null;
};

export const CLOSED_WORDS = "Sign-ups are closed on this server.";
export const INVITE_NEEDED_WORDS =
  "Sign-ups on this server need an invite link: ask an administrator of this server for one.";

export function signupOffer(policy: SignupPolicy, invited: boolean): SignupOffer {
  switch (policy) {
    case "closed":
      return { form: false, words: CLOSED_WORDS };
    case "invite":
      return invited
        ? { form: true, words: "You were invited: choose a username and a password to create your account." }
        : { form: false, words: INVITE_NEEDED_WORDS };
    case "approval":
      return {
        form: true,
        words: "New accounts wait for an administrator's approval: you can sign in once yours is approved.",
      };
    case "open":
      return { form: true, words: null };
  }
}

/** A refused sign-up or sign-in in words: the server's, with the wait of a 429 in minutes when it left it out. */
export function refusalWords(error: Pick<ApiError, "status" | "message" | "retryAfterSeconds">): string {
  const seconds = error.retryAfterSeconds;
  if (error.status !== 429 || seconds === undefined || /\bmin\b|minute/.test(error.message)) return error.message;
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${error.message.replace(/[.\s]+$/, "")}: try again in ${minutes} min`;
}
