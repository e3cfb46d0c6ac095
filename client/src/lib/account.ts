// Settings → Account over docs/protocol.md "Account": the ways into the account, the sessions (listed,
// signed out one at a time or all but this one) and a new password.

import { useEffect, useState } from "preact/hooks";
import { z } from "zod";
import {
  type Account,
  AccountSchema,
  type AccountSession,
  AccountSessionSchema,
  type Confirm,
  SignedOutSchema,
} from "../../../protocol";
import { type ApiError, type ApiResult, requestEmpty, requestJson } from "./api";
import { explainShareError } from "./shares";
import { useList } from "./use-list";

export type { Account, AccountSession };

/** An account route's failure in words (the server's own words for what it refused). */
export const explainAccountError = explainShareError;

const listSessions = (): Promise<ApiResult<AccountSession[]>> =>
  requestJson("/api/account/sessions", z.array(AccountSessionSchema));
const explainSessions = (error: ApiError) => explainAccountError(error, "load your sessions");

export function useSessions() {
  const { list, reload, update } = useList(listSessions, explainSessions);
  const signOut = async (id: string) => {
    const result = await requestEmpty(`/api/account/sessions/${encodeURIComponent(id)}`, "DELETE");
    if (result.ok || result.error.status === 404) update((items) => items.filter((s) => s.id !== id));
    return result;
  };
  const signOutOthers = async () => {
    const result = await requestJson("/api/account/sessions/sign-out-others", SignedOutSchema, "POST");
    if (result.ok) update((items) => items.filter((s) => s.current));
    return result;
  };
  return { list, reload, signOut, signOutOthers };
}

/** Who is signed in and the ways into the account; `reload` after one is added or removed. */
export function useAccount() {
  const [account, setAccount] = useState<ApiResult<Account> | undefined>();
  const reload = async () => setAccount(await requestJson("/api/account", AccountSchema));
  useEffect(() => {
    void reload();
  }, []);
  return { account, reload };
}

export function changePassword(newPassword: string, confirm: Confirm) {
  return requestJson("/api/account/password", SignedOutSchema, "POST", { new_password: newPassword, confirm });
}
