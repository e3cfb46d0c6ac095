// The web tools' side of the chat (docs/protocol.md "The web"), one chunk loaded with the first answer
// that lists sources or the first web tool card: an answer's Sources and the cards of web_search and
// web_fetch. An answer's `[n]` citations are links made with its Markdown (lib/markdown-tree.ts).
export { Sources } from "./sources";
export { WebToolCard } from "./web-tool-card";
