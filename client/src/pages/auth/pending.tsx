// What an account waiting for an administrator's approval sees instead of the app (SIGNUP=approval):
// who it is, Sign out, and that the app opens by itself once approved. It asks /api/me every 15 s and
// whenever the tab comes back to the front; nothing else is called meanwhile (the server refuses a
// pending account every other route). A 401 (the session gone) drops back to the sign-in page through
// lib/api.ts as anywhere else.
import { useEffect } from "preact/hooks";
import type { User } from "../../../../protocol";
import { requestJson } from "../../lib/api";
import { UserResponseSchema } from "../../lib/response-schemas";
import style from "./style.module.css";

export const PENDING_CHECK_MS = 15_000;

type Props = { user: User; onApproved: (user: User) => void; onLogOut: () => void };

export function PendingPage({ user, onApproved, onLogOut }: Props) {
  useEffect(() => {
    let live = true;
    let checking = false;
    /** Asked again while a check was on its way (the approval may have come after it left): once more after it. */
    let again = false;
    const check = async () => {
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      const result = await requestJson("/api/me", UserResponseSchema);
      checking = false;
      if (!live) return;
      if (result.ok && result.data.user.status !== "pending") return onApproved(result.data.user);
      if (again) {
        again = false;
        void check();
      }
    };
    const timer = setInterval(() => void check(), PENDING_CHECK_MS);
    const onFront = () => document.visibilityState === "visible" && void check();
    addEventListener("focus", onFront);
    document.addEventListener("visibilitychange", onFront);
    return () => {
      live = false;
      clearInterval(timer);
      removeEventListener("focus", onFront);
      document.removeEventListener("visibilitychange", onFront);
    };
  }, [onApproved]);

  return (
    <main class={style.page}>
      <section class={style.card} data-testid="pending-account" aria-labelledby="pending-title">
        <h1 id="pending-title" class={style.title}>
          Your account is waiting for an administrator's approval
        </h1>
        <p class={style.note}>
          You signed up as <strong data-testid="pending-username">{user.username}</strong>. An administrator of this
          server approves new accounts; this page opens the app by itself as soon as yours is approved.
        </p>
        <button type="button" class={style.secondary} onClick={onLogOut} data-testid="pending-logout">
          Sign out
        </button>
      </section>
    </main>
  );
}
