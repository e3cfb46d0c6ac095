// Who is signed in: GET /api/me on load decides between the app and the login page, and any 401 later
// (an expired or revoked session) drops the app back to signed out. With no network at all (the
// installed app opened offline, its shell from the service worker) it says so, and tries again as soon
// as the browser is back online. An account that waits for an administrator's approval (`status:
// "pending"`) is its own state: the app is not opened for it (its every other call would be refused).
import { useCallback, useEffect, useState } from "preact/hooks";
import type { User } from "../../../protocol";
import { onUnauthorized, requestEmpty, requestJson } from "./api";
import { forgetOutboxes } from "./outbox";
import { UserResponseSchema } from "./response-schemas";
import { forgetFileLimits } from "./use-attachments";
import { resetModels } from "./use-models";

export type Session =
  | { status: "loading" }
  | { status: "signed_out" }
  | { status: "signed_in"; user: User }
  | { status: "pending"; user: User }
  | { status: "unreachable"; message: string }
  | { status: "offline" };

const sessionOf = (user: User): Session =>
  user.status === "pending" ? { status: "pending", user } : { status: "signed_in", user };

export function useSession() {
  const [session, setSession] = useState<Session>({ status: "loading" });

  const refresh = useCallback(async () => {
    const result = await requestJson("/api/me", UserResponseSchema);
    if (result.ok) setSession(sessionOf(result.data.user));
    else if (result.error.status === 401) setSession({ status: "signed_out" });
    else if (result.error.code === "network" && !navigator.onLine) setSession({ status: "offline" });
    else setSession({ status: "unreachable", message: result.error.message });
  }, []);

  useEffect(() => {
    void refresh();
    return onUnauthorized(() => setSession({ status: "signed_out" }));
  }, [refresh]);

  useEffect(() => {
    if (session.status !== "offline") return;
    const retry = () => void refresh();
    addEventListener("online", retry);
    return () => removeEventListener("online", retry);
  }, [session.status, refresh]);

  // Whoever signs in next has models of their own: the page's list is read again for them.
  const signedIn = useCallback((user: User) => {
    resetModels();
    forgetFileLimits();
    setSession(sessionOf(user));
  }, []);

  const logOut = useCallback(async () => {
    await requestEmpty("/api/auth/logout", "POST");
    resetModels();
    forgetFileLimits();
    forgetOutboxes();
    setSession({ status: "signed_out" });
  }, []);

  return { session, signedIn, logOut, refresh };
}
