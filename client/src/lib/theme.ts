// The colour theme: System (follow prefers-color-scheme), Light or Dark, kept in localStorage on this
// device. global.css follows the system by itself; a choice of Light or Dark is the `data-theme`
// attribute on <html>, set by main.tsx before the first render so the page never flashes the other one.

export type ThemeChoice = "system" | "light" | "dark";

export const THEME_CHOICES: readonly ThemeChoice[] = ["system", "light", "dark"];

const STORAGE_KEY = "oracle.theme";

/** The page background of each theme (global.css --bg), for the browser's own bars (theme-color). */
const BAR_COLOURS = { light: "#f6f7f9", dark: "#14161b" } as const;

function isChoice(value: unknown): value is ThemeChoice {
  return THEME_CHOICES.includes(value as ThemeChoice);
}

/** The saved choice; System when none is saved or storage is unavailable (a private window, say). */
export function savedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isChoice(value) ? value : "system";
  } catch {
    return "system";
  }
}

/** Shows `choice` on this page: the attribute global.css reads, and the matching browser bar colour. */
export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", choice);
  // index.html has one theme-color per scheme (by media query); a fixed choice gives both its colour.
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    meta.dataset.schemeColour ??= meta.content;
    meta.content = choice === "system" ? meta.dataset.schemeColour : BAR_COLOURS[choice];
  }
}

/** Saves and applies `choice` (saving may fail in a private window: it still applies to this page). */
export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === "system") localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // not saved; applied anyway
  }
  applyTheme(choice);
}
