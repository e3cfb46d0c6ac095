// A page's address as a link may carry it: an absolute http(s) URL, normalised by the URL parser (which
// drops the tabs and newlines a "java\tscript:" trick relies on); anything else is null and shows as text.
export function pageHref(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
