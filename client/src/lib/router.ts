// A tiny history.pushState router: the app has a handful of routes, so a library would cost more than it
// saves. `navigate` changes the URL and tells every `useRoute` subscriber; Back/Forward arrive as popstate.
import { useEffect, useState } from "preact/hooks";
import { samePath } from "../../../protocol";

/** Settings' tabs, each at /settings/<tab> (/settings alone is Agent). */
export type SettingsTab =
  | "agent"
  | "appearance"
  | "models"
  | "usage"
  | "agent-notices"
  | "tools"
  | "web"
  | "personalization"
  | "device-notifications"
  | "shares"
  | "account"
  | "help";

export type Route =
  | { name: "login" }
  | { name: "signup" }
  /** An admin's password reset link (/reset?token=…): shown signed in or not. */
  | { name: "reset" }
  | { name: "home" }
  | { name: "conversation"; id: string }
  | { name: "settings"; tab: SettingsTab }
  | { name: "library" }
  | { name: "notes"; path?: string }
  | { name: "tasks" }
  | { name: "schedules" }
  /** A project's page (/projects/<id>): its instructions, files, memories and conversations. */
  | { name: "project"; id: string }
  /** The admin page: admins only (anyone else sees the not-found page). */
  | { name: "admin" }
  /** A share link's page (no account needed). */
  | { name: "shared"; id: string }
  | { name: "not_found" };

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

if (typeof window !== "undefined") window.addEventListener("popstate", notify);

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (path === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  notify();
}

/** A URL segment decoded, or undefined when it is not valid percent-encoding (/notes/%E0 must not throw). */
function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function parseRoute(pathname: string): Route {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return { name: "home" };
  if (path === "/login") return { name: "login" };
  if (path === "/signup") return { name: "signup" };
  if (path === "/reset") return { name: "reset" };
  const settings =
    /^\/settings(?:\/(agent|appearance|models|usage|agent-notices|tools|web|personalization|device-notifications|shares|account|help))?$/.exec(
      path,
    );
  if (settings) return { name: "settings", tab: (settings[1] ?? "agent") as SettingsTab };
  // A renamed tab's old address still opens it (Settings then shows the new one in the address bar).
  if (path === "/settings/notifications") return { name: "settings", tab: "agent-notices" };
  if (path === "/library") return { name: "library" };
  if (path === "/notes") return { name: "notes" };
  if (path === "/tasks") return { name: "tasks" };
  if (path === "/schedules") return { name: "schedules" };
  if (path === "/admin") return { name: "admin" };
  const note = path.startsWith("/notes/") ? decoded(path.slice("/notes/".length)) : undefined;
  if (note) return { name: "notes", path: note };
  // A page of one thing: /c/<id>, /projects/<id>, /s/<id>.
  const [, prefix, segment] = /^\/(c|projects|s)\/([^/]+)$/.exec(path) ?? [];
  const id = segment ? decoded(segment) : undefined;
  if (id) return { name: prefix === "c" ? "conversation" : prefix === "s" ? "shared" : "project", id };
  return { name: "not_found" };
}

/**
 * A `next` path to return to after signing in, or null when it is not one of ours (protocol/same-path.ts:
 * a crafted /login?next=//evil.example link cannot send the user elsewhere), nor a sign-in page itself.
 */
export function safeNext(next: string | null | undefined): string | null {
  const path = samePath(next);
  if (!path) return null;
  const { name } = parseRoute(new URL(path, location.origin).pathname);
  return name === "login" || name === "signup" || name === "reset" ? null : path;
}

/** Where a signed-out visit to `path` goes: the login page, remembering the way back. */
export function loginPathFor(path: string): string {
  const next = safeNext(path);
  if (!next || next === "/") return "/login";
  return `/login?next=${encodeURIComponent(next).replace(/%2F/gi, "/")}`;
}

/** The `next` of the current URL, when it is safe to follow. */
export function nextFromLocation(): string | null {
  return safeNext(new URLSearchParams(location.search).get("next"));
}

/** The current route; re-renders the caller whenever the URL changes. */
/** The message a link points at (`/c/<id>#m<seq>`, as search results link), re-read on every navigation. */
export function useTargetSeq(): number | null {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const update = () => setHash(location.hash);
    listeners.add(update);
    window.addEventListener("hashchange", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("hashchange", update);
    };
  }, []);
  return targetSeq(hash);
}

export function targetSeq(hash: string): number | null {
  const match = /^#m(\d{1,12})$/.exec(hash);
  return match ? Number(match[1]) : null;
}

export function useRoute(): Route {
  const [pathname, setPathname] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPathname(location.pathname);
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return parseRoute(pathname);
}
