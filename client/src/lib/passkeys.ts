// Passkeys in the browser (docs/protocol.md "Passkeys"): each ceremony asks the server for options, hands
// them to the browser's authenticator (@simplewebauthn/browser, loaded only when a ceremony starts, so
// the first page load stays small) and sends its answer back. A ceremony the person cancelled (or let
// time out) is not an error: it comes back as `cancelled`, in words, and nothing changed.
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { z } from "zod";
import { type Passkey, PasskeyOptionsSchema, PasskeySchema, type User } from "../../../protocol";
import { type ApiError, type ApiResult, requestEmpty, requestJson } from "./api";
import { UserResponseSchema } from "./response-schemas";

export type { Passkey };

/** A ceremony's outcome: what the server answered, or why not, in words (and whether it was only cancelled). */
export type PasskeyOutcome<T> =
  | { ok: true; data: T }
  | { ok: false; cancelled: boolean; message: string; error?: ApiError };

/** Whether this browser can use passkeys at all (as @simplewebauthn/browser's browserSupportsWebAuthn). */
export const passkeysSupported = (): boolean => typeof globalThis.PublicKeyCredential === "function";

const browser = () => import("@simplewebauthn/browser");

/** Browsers refuse passkeys on an IP address (a relying party is a domain): where to open the app instead. */
function byNameWords(): string {
  const { hostname, port, protocol } = location;
  if (hostname === "127.0.0.1" || hostname === "[::1]")
    return `Passkeys do not work on ${hostname}: open the app as ${protocol}//localhost${port ? `:${port}` : ""} instead.`;
  return "Passkeys do not work on this address: open the app by its name.";
}

/** What the browser's authenticator threw, in words; a cancel (or a timeout) says only that. */
function ceremonyFailure(error: unknown, doing: string): { ok: false; cancelled: boolean; message: string } {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError")
    return {
      ok: false,
      cancelled: true,
      message: `No passkey was used: the request to ${doing} was cancelled or timed out.`,
    };
  if (name === "InvalidStateError")
    return { ok: false, cancelled: false, message: "This device already holds a passkey for this account." };
  if (name === "SecurityError") return { ok: false, cancelled: false, message: byNameWords() };
  return {
    ok: false,
    cancelled: false,
    message: `Could not ${doing}: this browser or device could not make or use the passkey.`,
  };
}

/** A server refusal of a ceremony step, in words. */
function refused(error: ApiError, doing: string): { ok: false; cancelled: false; message: string; error: ApiError } {
  const words =
    error.status === 0
      ? "the server cannot be reached. Check your connection."
      : error.status >= 500
        ? "something went wrong on the server. Try again."
        : error.message;
  return { ok: false, cancelled: false, message: `Could not ${doing}: ${words}`, error };
}

/** Options from `optionsPath`, the browser's new passkey for them, and `finish` with its answer. */
async function register<T>(
  optionsPath: string,
  optionsBody: unknown,
  doing: string,
  finish: (challengeId: string, response: unknown) => Promise<ApiResult<T>>,
): Promise<PasskeyOutcome<T>> {
  const begun = await requestJson(optionsPath, PasskeyOptionsSchema, "POST", optionsBody);
  if (!begun.ok) return refused(begun.error, doing);
  let response: unknown;
  try {
    const { startRegistration } = await browser();
    const optionsJSON = begun.data.options as unknown as PublicKeyCredentialCreationOptionsJSON;
    response = await startRegistration({ optionsJSON });
  } catch (error) {
    return ceremonyFailure(error, doing);
  }
  const done = await finish(begun.data.challenge_id, response);
  return done.ok ? done : refused(done.error, doing);
}

/** Options from `optionsPath`, and the browser's assertion for them with one of this site's passkeys. */
async function assert(
  optionsPath: string,
  doing: string,
): Promise<PasskeyOutcome<{ challenge_id: string; response: Record<string, unknown> }>> {
  const begun = await requestJson(optionsPath, PasskeyOptionsSchema, "POST", {});
  if (!begun.ok) return refused(begun.error, doing);
  try {
    const { startAuthentication } = await browser();
    const optionsJSON = begun.data.options as unknown as PublicKeyCredentialRequestOptionsJSON;
    const response = await startAuthentication({ optionsJSON });
    return { ok: true, data: { challenge_id: begun.data.challenge_id, response: { ...response } } };
  } catch (error) {
    return ceremonyFailure(error, doing);
  }
}

/** Sign in with any passkey this browser holds for the site: no username. */
export async function signInWithPasskey(): Promise<PasskeyOutcome<User>> {
  const doing = "sign in with a passkey";
  const answer = await assert("/api/auth/passkey/signin-options", doing);
  if (!answer.ok) return answer;
  const result = await requestJson("/api/auth/passkey/signin", UserResponseSchema, "POST", answer.data);
  return result.ok ? { ok: true, data: result.data.user } : refused(result.error, doing);
}

/** A new account whose only way in is a new passkey. */
export async function signUpWithPasskey(username: string, invite?: string): Promise<PasskeyOutcome<User>> {
  const body = { username, ...(invite ? { invite } : {}) };
  const result = await register("/api/auth/passkey/signup-options", body, "sign up with a passkey", (id, response) =>
    requestJson("/api/auth/passkey/signup", UserResponseSchema, "POST", { challenge_id: id, response }),
  );
  return result.ok ? { ok: true, data: result.data.user } : result;
}

/** A new passkey for the signed-in account. */
export function addPasskey(): Promise<PasskeyOutcome<Passkey>> {
  return register("/api/account/passkeys/options", {}, "add a passkey", (id, response) =>
    requestJson("/api/account/passkeys", PasskeySchema, "POST", { challenge_id: id, response }),
  );
}

/**
 * A passkey's answer to confirm who the user is, as the `confirm` of a request that asks for it
 * (changing the password, deleting the account: docs/protocol.md "Account"). Cancelled: `cancelled`.
 */
export async function confirmWithPasskey(): Promise<
  { passkey: { challenge_id: string; response: Record<string, unknown> } } | { error: string; cancelled?: true }
> {
  const answer = await assert("/api/account/passkeys/confirm-options", "confirm with a passkey");
  if (answer.ok) return { passkey: answer.data };
  return answer.cancelled ? { error: answer.message, cancelled: true } : { error: answer.message };
}

const PasskeyListSchema = z.array(PasskeySchema);

export const listPasskeys = (): Promise<ApiResult<Passkey[]>> =>
  requestJson("/api/account/passkeys", PasskeyListSchema);

export const renamePasskey = (id: string, name: string): Promise<ApiResult<Passkey>> =>
  requestJson(`/api/account/passkeys/${encodeURIComponent(id)}`, PasskeySchema, "PATCH", { name });

export const removePasskey = (id: string): Promise<ApiResult<null>> =>
  requestEmpty(`/api/account/passkeys/${encodeURIComponent(id)}`, "DELETE");
