// The root: asks who is signed in, then shows the auth pages or the app, and keeps the URL honest
// (signed-out visitors land on /login, remembering where they were going in ?next=; signed-in ones never
// see it, and go back there once signed in, when that is a path of ours). A share link's page (/s/<id>)
// is shown to anyone, signed in or not, without the app around it. An account waiting for approval sees
// the waiting page instead of the app, at whatever address. The sign-in page and the waiting page are
// chunks of their own: a signed-in visit never downloads them.
import { useEffect } from "preact/hooks";
import { loginPathFor, navigate, nextFromLocation, useRoute } from "../../lib/router";
import { useSession } from "../../lib/use-session";
import { Shell } from "../shell";
import { lazyPage } from "../shell/lazy";
import style from "./style.module.css";

const SharedPage = lazyPage(() => import("../../pages/shared").then((m) => m.SharedPage));
const AuthForm = lazyPage(() => import("../../pages/auth").then((m) => m.AuthForm));
const ResetPage = lazyPage(() => import("../../pages/auth/reset").then((m) => m.ResetPage));
const PendingPage = lazyPage(() => import("../../pages/auth/pending").then((m) => m.PendingPage));

export function App() {
  const route = useRoute();
  const { session, signedIn, logOut, refresh } = useSession();
  const onAuthPage = route.name === "login" || route.name === "signup";
  // Pages anyone may see, signed in or not: a share link's, an admin's password reset link's.
  const shared = route.name === "shared" || route.name === "reset";

  useEffect(() => {
    if (session.status === "signed_out" && !onAuthPage && !shared)
      navigate(loginPathFor(location.pathname + location.search), { replace: true });
    if (session.status === "signed_in" && onAuthPage) navigate(nextFromLocation() ?? "/", { replace: true });
  }, [session.status, onAuthPage, shared]);

  useEffect(() => {
    if (route.name === "reset") document.title = "Set a new password · Oracle";
    if (shared) return; // the shared page names itself
    if (session.status === "signed_out") document.title = `${route.name === "signup" ? "Sign up" : "Log in"} · Oracle`;
    else if (session.status === "pending") document.title = "Waiting for approval · Oracle";
    else if (session.status !== "signed_in") document.title = "Oracle";
  }, [session.status, route.name, shared]);

  const onLogOut = async () => {
    await logOut();
    navigate("/login"); // a deliberate log out does not come back here (no ?next=)
  };

  if (route.name === "shared") return <SharedPage id={route.id} session={session.status} />;
  if (route.name === "reset")
    return (
      <ResetPage
        onSignedIn={(user) => {
          signedIn(user);
          navigate("/", { replace: true });
        }}
      />
    );

  switch (session.status) {
    case "loading":
      return <div class={style.splash}>Loading…</div>;
    case "unreachable":
      return (
        <div class={style.splash} role="alert">
          <p>The Oracle cannot be reached: {session.message}</p>
          <button type="button" onClick={() => void refresh()}>
            Try again
          </button>
        </div>
      );
    case "offline":
      return (
        <div class={style.splash} role="status" data-testid="offline">
          <h1 class={style.offlineTitle}>You're offline</h1>
          <p>Oracle needs a connection to reach your conversations. It reconnects when you're back online.</p>
          <button type="button" onClick={() => void refresh()}>
            Try again
          </button>
        </div>
      );
    case "signed_out":
      return <AuthForm mode={route.name === "signup" ? "signup" : "login"} onSignedIn={signedIn} />;
    case "pending":
      return <PendingPage user={session.user} onApproved={signedIn} onLogOut={() => void onLogOut()} />;
    case "signed_in":
      return <Shell user={session.user} route={route} onLogOut={() => void onLogOut()} />;
  }
}
