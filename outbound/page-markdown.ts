// An HTML page as Markdown the model reads (web_fetch, outbound/web-page.ts): the article, not the
// navigation, ads and banners around it. linkedom parses the page into a DOM (pure JS, runs in workerd and
// Node), Mozilla's Readability (Firefox's reader view) finds the article, and turndown writes Markdown.
// When Readability finds no article (a short page, a listing), the body is read without what is never
// content (nav, header, footer, aside, forms, banners). Links are made absolute against the page's URL
// (or its <base>), `javascript:` and other non-web links keep only their words, tables become GFM
// tables, code blocks keep their language. Images: only an http(s) image with alt text stays, as
// `![alt](url)`: its words say what the figure shows and its URL can be cited; an image without alt text
// says nothing, and a data: URI is bytes the model cannot read.
//
// Tables are our own small rule, not a plugin: `turndown-plugin-gfm` has had no release since 2017, and
// the maintained `@joplin/turndown-plugin-gfm` is shaped for Joplin's editor (a table it cannot write in
// Markdown comes back as HTML in a Joplin wrapper, its state is module-wide, no types). Here every table
// becomes a GFM table (cells on one line, pipes escaped); a layout table of one column is read as blocks.
import { isProbablyReaderable, Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

export interface PageMarkdown {
  title: string;
  markdown: string;
  byline?: string;
  /** When the page says it was published, as it says it (usually ISO 8601). */
  published?: string;
  /** The page's language (`<html lang>`), e.g. "en" or "pt-BR". */
  lang?: string;
  /** The site's own name (og:site_name), as the page gives it. */
  siteName?: string;
}

/**
 * The part of the DOM used here, as linkedom gives it. Written out because the Worker's TypeScript program
 * has no DOM library (workerd has no DOM), while the Node one has the browser's.
 */
interface El {
  readonly nodeName: string;
  readonly parentElement: El | null;
  readonly children: ArrayLike<El> & Iterable<El>;
  readonly nextSibling: unknown;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): Iterable<El>;
  closest(selector: string): El | null;
  cloneNode(deep: boolean): El;
  normalize(): void;
  remove(): void;
}

interface Doc {
  readonly documentElement: El | null;
  readonly body: El | null;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): Iterable<El>;
}

const domOf = (html: string) => parseHTML(html).document as unknown as Doc;
/** A node turndown hands a rule, as the element it is. */
const el = (node: unknown) => node as El;

/** Never content, in an article or out of one. */
const NEVER = "script, style, noscript, template, iframe, object, embed, svg, canvas, link, meta";
/** Not the page's content when no article was found: the page's frame. */
const FRAME =
  "nav, aside, form, dialog, button, select, input, textarea, [role=navigation], [role=banner], [role=contentinfo], [role=complementary], [role=search], [role=dialog], [role=alertdialog], [hidden], [aria-hidden=true]";
/** Names (id, class) of what sits on a page without being its content: cookie banners, ads, sharing bars. */
const CHROME_NAME =
  /(?:^|[\s_-])(?:cookies?|consent|gdpr|banner|adverts?|advertisement|ads?|sponsor(?:ed)?|promo|popup|newsletter|share|sharing|social|related|breadcrumbs?|paywall)(?:$|[\s_-])/i;
/** Readability's article is taken when it holds at least this much text, or a third of the page's. */
const MIN_ARTICLE_CHARS = 500;
const MAX_TITLE_CHARS = 300;

/** The first http(s) URL: the page's <base href> (resolved against the page's URL), else the page's. */
function baseOf(document: Doc, pageUrl: string): string {
  const href = document.querySelector("base[href]")?.getAttribute("href");
  if (href) {
    try {
      const base = new URL(href, pageUrl);
      if (base.protocol === "https:" || base.protocol === "http:") return base.href;
    } catch {
      // A broken <base>: the page's own URL.
    }
  }
  return pageUrl;
}

function absolute(value: string, base: string): URL | undefined {
  try {
    return new URL(value.trim(), base);
  } catch {
    return undefined;
  }
}

const WEB_LINK = new Set(["https:", "http:", "mailto:"]);

/** Every link and image made absolute; a link that leads nowhere on the web keeps its words only. */
function resolveUrls(document: Doc, base: string): void {
  for (const a of document.querySelectorAll("a[href]")) {
    const url = absolute(a.getAttribute("href") ?? "", base);
    if (url && WEB_LINK.has(url.protocol)) a.setAttribute("href", url.href);
    else a.removeAttribute("href");
  }
  for (const img of document.querySelectorAll("img")) {
    const url = absolute(img.getAttribute("src") ?? "", base);
    if (url && (url.protocol === "https:" || url.protocol === "http:")) img.setAttribute("src", url.href);
    else img.remove();
  }
}

function parse(html: string): Doc {
  const clean = html.replace(MARKERS, "");
  let document = domOf(clean);
  // A fragment: linkedom makes its first element the document's root; give it a document around it.
  if (document.documentElement?.nodeName !== "HTML" || !document.body)
    document = domOf(`<!DOCTYPE html><html><head></head><body>${clean}</body></html>`);
  // linkedom leaves a text node per entity ("&lt;", "x", "&gt;"): one node per run of text, as a browser
  // has, so a ">" or "#" is not taken for the start of a line.
  document.documentElement?.normalize();
  return document;
}

const oneLine = (text: string | null | undefined) => text?.replace(/\s+/g, " ").trim() ?? "";

const meta = (document: Doc, selector: string) =>
  oneLine(document.querySelector(selector)?.getAttribute("content")) || undefined;

/**
 * Cookie banners, ads, sharing bars, named so by their id or class, wherever they are (Readability keeps
 * an ad inside the article, and one beside it whose name it does not know); never one that holds the
 * content itself (an article, main, the heading) or sits in code.
 */
function removeChrome(root: El): void {
  for (const node of root.querySelectorAll("[id], [class]")) {
    const names = `${node.getAttribute("id") ?? ""} ${node.getAttribute("class") ?? ""}`;
    if (!CHROME_NAME.test(names) || node.closest("pre, code") || node.querySelector("article, main, h1")) continue;
    node.remove();
  }
}

/** The body without its frame (nav, header and footer outside the content, asides, banners, forms). */
function bodyContent(document: Doc): El | undefined {
  const body = document.body?.cloneNode(true);
  if (!body) return undefined;
  for (const node of body.querySelectorAll(`${NEVER}, ${FRAME}`)) node.remove();
  for (const node of body.querySelectorAll("header, footer"))
    if (!node.parentElement?.closest("article, main")) node.remove();
  return body;
}

/** The page's article as Readability finds it, when it looks like one; undefined for a listing or a stub. */
function article(document: Doc, pageChars: number) {
  const doc = document as unknown as ConstructorParameters<typeof Readability>[0];
  if (!isProbablyReaderable(doc)) return undefined;
  // keepClasses: the language of a code block is in its class ("language-ts").
  const found = new Readability<El>(doc, { keepClasses: true, serializer: el }).parse();
  const chars = oneLine(found?.textContent).length;
  if (!found?.content || chars < Math.min(MIN_ARTICLE_CHARS, pageChars / 3)) return undefined;
  return found;
}

/**
 * The page's readable text as Markdown and what it says of itself. `url` is where the page was read (the
 * final URL after redirects): relative links are resolved against it.
 */
export function pageMarkdown(html: string, url: string): PageMarkdown {
  const document = parse(html);
  resolveUrls(document, baseOf(document, url));
  const lang = oneLine(document.documentElement?.getAttribute("lang")) || undefined;
  const siteName = meta(document, 'meta[property="og:site_name"]');
  const ogTitle = meta(document, 'meta[property="og:title"], meta[name="twitter:title"]');
  const h1 = oneLine(document.querySelector("h1")?.textContent);
  const docTitle = oneLine(document.querySelector("title")?.textContent);
  const byline = meta(document, 'meta[name="author"]');
  const published = meta(document, 'meta[property="article:published_time"]');
  if (document.body) removeChrome(document.body);
  // Before Readability, which takes the document apart.
  const body = bodyContent(document);
  const found = article(document, oneLine(body?.textContent).length);
  const root = found?.content ?? body;
  const title = (oneLine(found?.title) || ogTitle || docTitle || h1).slice(0, MAX_TITLE_CHARS);
  const pick = (...values: (string | null | undefined)[]) => values.map(oneLine).find(Boolean);
  let markdown = root ? markdownOf(root) : "";
  // Readability takes the article's heading out (it is the title): the text starts with it again.
  if (found && markdown && title && !markdown.startsWith("# ")) markdown = `# ${turndown.escape(title)}\n\n${markdown}`;
  return {
    title,
    markdown,
    ...optional("byline", pick(found?.byline, byline)),
    ...optional("published", pick(found?.publishedTime, published)),
    ...optional("lang", pick(found?.lang, lang)),
    ...optional("siteName", pick(found?.siteName, siteName)),
  };
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  (value ? { [key]: value } : {}) as Partial<Record<K, string>>;

/** Markdown of a DOM element: blank lines at most one, no trailing blanks. */
function markdownOf(root: El): string {
  const markdown = turndown.turndown(root as unknown as Parameters<typeof turndown.turndown>[0]);
  return markdown
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

// Markers of a table's rows and cells between turndown's rules (private-use characters, taken out of the
// page's text first): a cell's content comes up to its table's rule, which lays the table out.
const ROW = "\uE001";
const CELL = "\uE000";
const MARKERS = /[\uE000\uE001]/g;

const turndown = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
  emDelimiter: "*",
  hr: "---",
});

/**
 * Only what would change the Markdown's structure is escaped (a line that would read as a heading, a list
 * item, a quote, a fence): the model reads this text, and `snake\_case` or `2\*3` would only be noise
 * and hide words from `find`.
 */
turndown.escape = (text: string) =>
  text
    .replace(MARKERS, "")
    .replace(/^(\s*)([#>+-]|`{3,}|~{3,}|={3,})/gm, "$1\\$2")
    .replace(/^(\s*\d+)([.)])(?=\s|$)/gm, "$1\\$2");

const REMOVED = new Set(
  "SCRIPT STYLE NOSCRIPT TEMPLATE IFRAME OBJECT EMBED SVG CANVAS BUTTON SELECT INPUT TEXTAREA CAPTION COLGROUP COL".split(
    " ",
  ),
);
turndown.remove((node) => REMOVED.has(node.nodeName.toUpperCase()));

/** "language-ts", "lang-ts" (Prism, highlight.js, CommonMark), "highlight-source-ts" (GitHub), "brush: ts". */
const CODE_LANGUAGE = /(?:^|\s)(?:(?:language|lang|highlight-source|highlight-text)-|brush:\s*)([\w+#.-]+)/i;

function languageOf(pre: El): string {
  for (const node of [pre.querySelector("code"), pre, pre.parentElement]) {
    const data = node?.getAttribute("data-lang") ?? node?.getAttribute("data-language");
    if (data && /^[\w+#.-]+$/.test(data)) return data.toLowerCase();
    const match = CODE_LANGUAGE.exec(node?.getAttribute("class") ?? "");
    if (match?.[1]) return match[1].toLowerCase();
  }
  return "";
}

turndown.addRule("codeBlock", {
  filter: "pre",
  replacement(_content, node) {
    const pre = el(node);
    const code = (pre.textContent ?? "").replace(MARKERS, "").replace(/\n$/, "");
    if (!code.trim()) return "";
    const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = "`".repeat(longest + 1);
    return `\n\n${fence}${languageOf(pre)}\n${code}\n${fence}\n\n`;
  },
});

turndown.addRule("link", {
  filter: (node) => node.nodeName === "A",
  replacement(content, node) {
    const href = el(node).getAttribute("href");
    const words = content.trim();
    if (!words) return "";
    // resolveUrls left an href only on a web link; a `)` or space would end the Markdown link early.
    if (!href) return content;
    return `[${words}](${href.replace(/[()\s]/g, encodeURIComponent)})`;
  },
});

turndown.addRule("image", {
  filter: "img",
  replacement(_content, node) {
    const img = el(node);
    const alt = oneLine(img.getAttribute("alt")).replace(/[[\]]/g, "");
    const src = img.getAttribute("src");
    return alt && src ? `![${alt}](${src.replace(/[()\s]/g, encodeURIComponent)})` : "";
  },
});

turndown.addRule("listItem", {
  filter: "li",
  replacement(content, node) {
    const item = el(node);
    const list = item.parentElement;
    let prefix = "- ";
    if (list?.nodeName === "OL") {
      const start = list.getAttribute("start")?.trim() ?? "";
      prefix = `${(/^\d{1,9}$/.test(start) ? Number(start) : 1) + [...list.children].indexOf(item)}. `;
    }
    const body = content
      .replace(/^\n+/, "")
      .replace(/\n+$/, "\n")
      .replace(/\n(?=.)/g, `\n${" ".repeat(prefix.length)}`);
    return prefix + body + (item.nextSibling && !body.endsWith("\n") ? "\n" : "");
  },
});

turndown.addRule("strikethrough", {
  filter: ["del", "s"],
  replacement: (content) => (content.trim() ? `~~${content}~~` : ""),
});

turndown.addRule("tableCell", {
  filter: ["th", "td"],
  replacement(content, node) {
    const span = Math.min(Number(el(node).getAttribute("colspan")) || 1, 50);
    return CELL + content + CELL.repeat(span - 1);
  },
});

turndown.addRule("tableRow", { filter: "tr", replacement: (content) => ROW + content });

turndown.addRule("tableSection", { filter: ["thead", "tbody", "tfoot"], replacement: (content) => content });

const cellText = (cell: string) =>
  cell
    .trim()
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|");

turndown.addRule("table", {
  filter: "table",
  replacement(content) {
    const rows = content
      .split(ROW)
      .slice(1)
      .map((row) => row.split(CELL).slice(1));
    const width = Math.max(0, ...rows.map((r) => r.length));
    // A layout table (one column, or nothing in it): its cells are blocks of the page, in order.
    if (width <= 1) return `\n\n${rows.flat().join("\n\n")}\n\n`;
    const lines = rows
      .filter((row) => row.some((cell) => cell.trim()))
      .map((row) => {
        const cells = [...row, ...Array<string>(width - row.length).fill("")].map(cellText);
        return `| ${cells.join(" | ")} |`;
      });
    if (!lines.length) return "";
    // GFM wants a header row: the first row is it (a table without <th> has its first row read as one).
    const rule = `|${" --- |".repeat(width)}`;
    return `\n\n${[lines[0], rule, ...lines.slice(1)].join("\n")}\n\n`;
  },
});
