// Where a sign-in may send the browser next (`?next=`): a path of this app only, so a crafted link cannot
// send the user elsewhere. Shared by the client's sign-in page and the Worker's identity-provider flow.

/**
 * `next` as a path of this app (one leading "/", not "//", no backslash or control character, at most
 * 2000 characters), with its query and fragment; undefined otherwise.
 */
export function samePath(next: string | null | undefined): string | undefined {
  if (!next || next.length > 2000 || !next.startsWith("/") || next.startsWith("//") || next.includes("\\"))
    return undefined;
  if ([...next].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return undefined;
  try {
    const url = new URL(next, "https://app.invalid");
    return url.origin === "https://app.invalid" ? url.pathname + url.search + url.hash : undefined;
  } catch {
    return undefined;
  }
}
