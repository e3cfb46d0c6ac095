// Both themes of client/src/global.css meet WCAG AA: every colour the UI uses as text has a contrast
// of at least 4.5:1 on every background it is shown on. The tokens are read from global.css itself, so a
// future colour change that breaks AA fails here. Also: the component styles use tokens only (a colour
// literal there would stay the same in both themes: a dark island on a light page).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CLIENT = path.resolve(import.meta.dirname, "../../client/src");
const css = readFileSync(path.join(CLIENT, "global.css"), "utf8");

type Rgb = [number, number, number];
type Tokens = Record<string, string>;

/** The custom properties declared in a rule's body. */
function declarations(body: string): Tokens {
  const tokens: Tokens = {};
  for (const [, name = "", value = ""] of body.matchAll(/--([\w-]+):\s*([^;]+);/g)) tokens[name] = value.trim();
  return tokens;
}

/** The custom properties of the first rule of `text` whose selector is exactly `selector`. */
function tokensOf(selector: string, text = css): Tokens {
  const start = text.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`global.css has no rule ${selector}`);
  return declarations(text.slice(start + selector.length + 2, text.indexOf("}", start)));
}

/** #rgb, #rrggbb and rgb(r g b) (text and backgrounds are opaque). */
function parseColour(value: string): Rgb {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
    return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb;
  }
  const rgb = /^rgb\((\d+) (\d+) (\d+)\)$/.exec(value);
  if (!rgb) throw new Error(`not an opaque colour this test reads: ${value}`);
  return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] as Rgb;
}

/** color-mix(in srgb, a p%, b). */
function mix(a: Rgb, percent: number, b: Rgb): Rgb {
  return a.map((v, i) => (v * percent + (b[i] ?? 0) * (100 - percent)) / 100) as Rgb;
}

function luminance([r, g, b]: Rgb): number {
  const linear = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [Math.max(luminance(a), luminance(b)), Math.min(luminance(a), luminance(b))];
  return (hi + 0.05) / (lo + 0.05);
}

/** The backgrounds text is shown on: pages, cards, bubbles, inputs. */
const BACKGROUNDS = ["bg", "surface", "surface-2", "agent-bubble", "system-bg"];
/** What is written in colour on those: body and secondary text, links, and the severities used as text. */
const TEXTS = ["text", "muted", "accent", "ok", "info", "warning", "error", "critical", "debug"];

/** [label, text, background] for one theme: every text on every background, plus the special pairs. */
function pairs(t: Tokens): [string, Rgb, Rgb][] {
  const c = (name: string) => parseColour(t[name] ?? `missing --${name}`);
  const out: [string, Rgb, Rgb][] = [];
  for (const text of TEXTS) for (const bg of BACKGROUNDS) out.push([`${text} on ${bg}`, c(text), c(bg)]);
  out.push(
    ["text on user-bubble", c("text"), c("user-bubble")],
    ["on-accent on accent-strong (primary buttons)", c("on-accent"), c("accent-strong")],
    ["on-danger on danger (destructive buttons)", c("on-danger"), c("danger")],
    // The tinted backgrounds the components mix (color-mix in their CSS modules).
    ["warning on the demo badge", c("warning"), mix(c("warning"), 18, c("surface"))],
    ["warning on a notification mark", c("warning"), mix(c("warning"), 15, c("system-bg"))],
    ["warning on an interrupt item", c("warning"), mix(c("warning"), 12, c("system-bg"))],
    ["error on the sign-in error", c("error"), mix(c("error"), 12, c("surface"))],
    ["error on an error bubble", c("error"), mix(c("error"), 12, c("agent-bubble"))],
    ["text on an error bubble", c("text"), mix(c("error"), 12, c("agent-bubble"))],
    ["text on a search highlight", c("text"), mix(c("accent"), 28, c("surface"))],
    ["text on a question banner", c("text"), mix(c("accent"), 25, c("bg"))],
  );
  return out;
}

/** One theme's tokens: each light-dark(light, dark) pair gives its side; other values are the same in both. */
function theme(side: "light" | "dark"): Tokens {
  const tokens: Tokens = {};
  for (const [name, value] of Object.entries(tokensOf(":root"))) {
    const pair = /^light-dark\((.+?),\s*(#[0-9a-f]+|rgba?\([^)]*\))\)$/i.exec(value);
    tokens[name] = pair ? (pair[side === "light" ? 1 : 2] ?? "").trim() : value;
  }
  return tokens;
}

const dark = theme("dark");
const light = theme("light");

describe.each([
  ["dark", dark],
  ["light", light],
])("the %s theme", (_name, tokens) => {
  it("has every text colour at 4.5:1 or more on each of its backgrounds (WCAG AA)", () => {
    const failing = pairs(tokens)
      .map(([label, fg, bg]) => ({ label, ratio: Math.round(contrast(fg, bg) * 100) / 100 }))
      .filter(({ ratio }) => ratio < 4.5);
    expect(failing).toEqual([]);
  });

  it("is light or dark as it says: light text on a dark page, or dark on a light one", () => {
    const bg = luminance(parseColour(tokens.bg ?? "missing --bg"));
    const text = luminance(parseColour(tokens.text ?? "missing --text"));
    if (tokens === dark) expect(bg).toBeLessThan(text);
    else expect(bg).toBeGreaterThan(text);
  });
});

it("gives every colour token a light and a dark value, and lets the system or Settings pick the theme", () => {
  const colourNames = Object.keys(tokensOf(":root")).filter((name) => !["radius", "font", "mono"].includes(name));
  // A token the two themes share (white on a button) is written once; every other differs by theme.
  for (const name of colourNames) {
    if (light[name] === dark[name]) expect(tokensOf(":root")[name], name).not.toMatch(/light-dark/);
    else expect(tokensOf(":root")[name], name).toMatch(/^light-dark\(/);
  }
  expect(colourNames.filter((name) => light[name] !== dark[name]).length).toBeGreaterThan(15);
  // The system's scheme by default; data-theme (client/src/lib/theme.ts) fixes one.
  expect(css).toMatch(/:root \{\s*color-scheme: light dark;/);
  expect(css).toMatch(/:root\[data-theme="light"\] \{\s*color-scheme: light;\s*\}/);
  expect(css).toMatch(/:root\[data-theme="dark"\] \{\s*color-scheme: dark;\s*\}/);
});

it("leaves no colour literal in the components' styles (they would not follow the theme)", () => {
  const dir = path.join(CLIENT, "components");
  const literals: string[] = [];
  for (const component of readdirSync(dir)) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, component, "style.module.css"), "utf8");
    } catch {
      continue;
    }
    text.split("\n").forEach((line, i) => {
      // A mask's colour is only its alpha: it never shows.
      if (/mask(-image)?:/.test(line)) return;
      if (/#[0-9a-f]{3,8}\b|\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(|:\s*(white|black)\s*;/i.test(line)) {
        literals.push(`${component}/style.module.css:${i + 1}: ${line.trim()}`);
      }
    });
  }
  expect(literals).toEqual([]);
});
