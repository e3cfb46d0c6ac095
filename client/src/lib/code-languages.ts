// The languages the highlight chunk (components/markdown/highlight.ts) registers, by every name a fence
// may give them. Kept here, outside that chunk, so a message's code can be checked without loading
// highlight.js: a fence in another language (or none) is shown plain and loads nothing.
// test/node/rich-markdown.test.ts checks this table against what highlight.js registers.
export const CODE_LANGUAGES: Record<string, readonly string[]> = {
  javascript: ["js", "jsx", "mjs", "cjs"],
  typescript: ["ts", "tsx", "mts", "cts"],
  python: ["py", "gyp", "ipython"],
  bash: ["sh", "zsh"],
  shell: ["console", "shellsession"],
  json: ["jsonc", "json5"],
  xml: ["html", "xhtml", "rss", "atom", "xjb", "xsd", "xsl", "plist", "wsf", "svg"],
  css: [],
  sql: [],
  go: ["golang"],
  rust: ["rs"],
  java: ["jsp"],
  c: ["h"],
  cpp: ["cc", "c++", "h++", "hpp", "hh", "hxx", "cxx"],
  csharp: ["cs", "c#"],
  yaml: ["yml"],
  markdown: ["md", "mkdown", "mkd"],
  diff: ["patch"],
  ruby: ["rb", "gemspec", "podspec", "thor", "irb"],
  php: [],
  kotlin: ["kt", "kts", "ktm", "ktx"],
  swift: [],
  dockerfile: ["docker"],
  ini: ["toml"],
  powershell: ["pwsh", "ps", "ps1"],
};

const BY_NAME = new Map<string, string>(
  Object.entries(CODE_LANGUAGES).flatMap(([name, aliases]) => [name, ...aliases].map((alias) => [alias, name])),
);

/** The highlight.js language a fence's info string names, or null (unknown, or no language given). */
export function highlightLanguage(lang: string): string | null {
  return BY_NAME.get(lang.toLowerCase()) ?? null;
}
