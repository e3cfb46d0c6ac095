// The two WebAuthn ceremonies (make a passkey, use one) with @simplewebauthn/server, whatever they are
// for: signing up, adding a passkey, signing in, confirming. Each begins with a challenge kept
// server-side for five minutes under a handle the browser sends back (auth_challenges, stored by the
// handle's hash), and ends by taking that challenge (once) and verifying the browser's answer against
// the relying party: its id and origins come from the deployment (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS),
// else from the request's own URL.
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Context } from "hono";
import { fromBase64Url, toBase64Url } from "../../core/base64";
import { storeChallenge, takeChallenge } from "../../d1/auth-challenges";
import { database } from "../../d1/client";
import { placementOfPasskey } from "../../d1/directory";
import { type NewPasskey, type PasskeyRow, parseTransports, passkeyById, recordPasskeyUse } from "../../d1/passkeys";
import type { WebAuthnResponse } from "../../protocol";
import { type AppEnv, directory, enterShard } from "../middleware/identity";
import { randomToken, sha256Hex } from "./crypto";

export type PasskeyPurpose = "passkey-register" | "passkey-signin" | "passkey-signup" | "passkey-confirm";

/** How long a ceremony may take, from its options to its answer. */
export const CHALLENGE_SECONDS = 5 * 60;

export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/** Who the passkeys are for: the deployment's variables, else the host and origin the request came to. */
export function relyingParty(c: Context<AppEnv>): RelyingParty {
  const url = new URL(c.req.url);
  const origins = (c.env.WEBAUTHN_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim().replace(/\/+$/, ""))
    .filter(Boolean);
  return {
    id: c.env.WEBAUTHN_RP_ID?.trim() || url.hostname,
    name: c.env.WEBAUTHN_RP_NAME?.trim() || "Oracle",
    origins: origins.length ? origins : [url.origin],
  };
}

/** The WebAuthn user handle of an account: its id's bytes (what a discoverable passkey gives back). */
const userHandle = (userId: string) => new Uint8Array(new TextEncoder().encode(userId));

/** What a ceremony left to check its answer against: the challenge, and what the purpose carries. */
export type ChallengeData = { challenge: string } & Record<string, unknown>;

/** Where a ceremony's challenge is kept: a signed-in user's in their shard, one naming nobody yet in the directory. */
const challenges = (c: Context<AppEnv>, owner: string | null) => (owner === null ? database(directory(c)) : c.var.db);

/** The ceremony's challenge of `purpose` (and `owner`'s), taken once. */
async function takeCeremony(c: Context<AppEnv>, purpose: PasskeyPurpose, challengeId: string, owner: string | null) {
  const taken = await takeChallenge(challenges(c, owner), await sha256Hex(challengeId), purpose, owner);
  return taken?.data as ChallengeData | undefined;
}

async function issueChallenge(
  c: Context<AppEnv>,
  purpose: PasskeyPurpose,
  owner: string | null,
  data: ChallengeData,
): Promise<string> {
  const handle = randomToken("pkc");
  const expiresAt = new Date(Date.now() + CHALLENGE_SECONDS * 1000).toISOString();
  await storeChallenge(challenges(c, owner), { id: await sha256Hex(handle), purpose, userId: owner, data, expiresAt });
  return handle;
}

/** Why a ceremony's answer was refused; each caller says it in its own words and status. */
export type CeremonyFailure = "expired" | "unknown_credential" | "not_verified";

/**
 * Options to make a passkey for `user` (discoverable, so it signs in without a username), and the
 * challenge they hold; `owner` is the signed-in user the ceremony belongs to (none for a sign-up),
 * `extra` what the answer will need (a sign-up's username).
 */
export async function beginRegistration(
  c: Context<AppEnv>,
  purpose: PasskeyPurpose,
  {
    owner,
    user,
    exclude = [],
    extra = {},
  }: {
    owner: string | null;
    user: { id: string; name: string };
    exclude?: { id: string; transports: string[] }[];
    extra?: Record<string, unknown>;
  },
): Promise<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const rp = relyingParty(c);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.name,
    userID: userHandle(user.id),
    userDisplayName: user.name,
    timeout: CHALLENGE_SECONDS * 1000,
    attestationType: "none",
    excludeCredentials: exclude,
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  const challengeId = await issueChallenge(c, purpose, owner, { ...extra, challenge: options.challenge });
  return { challenge_id: challengeId, options };
}

/** Takes the challenge and verifies a new passkey against it: what to store, and the challenge's data. */
export async function finishRegistration(
  c: Context<AppEnv>,
  purpose: PasskeyPurpose,
  { challengeId, response, owner }: { challengeId: string; response: WebAuthnResponse; owner: string | null },
): Promise<{ ok: true; data: ChallengeData; passkey: Omit<NewPasskey, "userId" | "name"> } | CeremonyRefusal> {
  const data = await takeCeremony(c, purpose, challengeId, owner);
  if (!data) return refused("expired");
  const rp = relyingParty(c);
  const result = await verifyRegistrationResponse({
    response: response as unknown as RegistrationResponseJSON,
    expectedChallenge: data.challenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch((error: unknown) => notVerified(purpose, error));
  if (!result?.verified) return refused("not_verified");
  const info = result.registrationInfo;
  const passkey = {
    id: info.credential.id,
    publicKey: toBase64Url(info.credential.publicKey),
    counter: info.credential.counter,
    transports: JSON.stringify(info.credential.transports ?? []),
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
  };
  return { ok: true, data, passkey };
}

/** Options to use a passkey: any discoverable one of this site (`allow` absent), or one of `allow`. */
export async function beginAssertion(
  c: Context<AppEnv>,
  purpose: PasskeyPurpose,
  { owner, allow }: { owner: string | null; allow?: { id: string; transports: string[] }[] },
): Promise<{ challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(c).id,
    allowCredentials: allow,
    userVerification: "preferred",
    timeout: CHALLENGE_SECONDS * 1000,
  });
  const challengeId = await issueChallenge(c, purpose, owner, { challenge: options.challenge });
  return { challenge_id: challengeId, options };
}

/**
 * Takes the challenge and verifies the assertion with the passkey it names (one of `owner`'s, when the
 * ceremony has an owner); the passkey's counter and last use are recorded.
 */
export async function finishAssertion(
  c: Context<AppEnv>,
  purpose: PasskeyPurpose,
  { challengeId, response, owner }: { challengeId: string; response: WebAuthnResponse; owner: string | null },
): Promise<{ ok: true; passkey: PasskeyRow } | CeremonyRefusal> {
  // Taken first: a refused answer uses its challenge up too, so a replay always finds none.
  const data = await takeCeremony(c, purpose, challengeId, owner);
  if (!data) return refused("expired");
  // A sign-in names only the credential: the directory says whose it is and in which shard.
  if (owner === null) {
    const placement = await placementOfPasskey(directory(c), response.id);
    if (!placement) return refused("unknown_credential");
    enterShard(c, placement.shard);
  }
  const passkey = await passkeyById(c.var.db, response.id);
  if (!passkey || (owner !== null && passkey.userId !== owner)) return refused("unknown_credential");
  const handle = response.response.userHandle;
  if (typeof handle === "string" && handle !== "" && handle !== toBase64Url(userHandle(passkey.userId)))
    return refused("unknown_credential");
  const rp = relyingParty(c);
  const result = await verifyAuthenticationResponse({
    response: response as unknown as AuthenticationResponseJSON,
    expectedChallenge: data.challenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    credential: {
      id: passkey.id,
      publicKey: new Uint8Array(fromBase64Url(passkey.publicKey)),
      counter: passkey.counter,
      transports: parseTransports(passkey.transports) as AuthenticatorTransport[],
    },
    requireUserVerification: false,
  }).catch((error: unknown) => notVerified(purpose, error));
  if (!result?.verified) return refused("not_verified");
  const { newCounter, credentialBackedUp } = result.authenticationInfo;
  await recordPasskeyUse(c.var.db, passkey.id, { counter: newCounter, backedUp: credentialBackedUp });
  return { ok: true, passkey };
}

type CeremonyRefusal = { ok: false; reason: CeremonyFailure };
const refused = (reason: CeremonyFailure): CeremonyRefusal => ({ ok: false, reason });

/** The library throws on a bad answer (wrong origin, challenge, signature…): logged as such, refused. */
function notVerified(purpose: PasskeyPurpose, error: unknown): undefined {
  console.warn(`${purpose}: answer not verified:`, error instanceof Error ? error.message : String(error));
  return undefined;
}
