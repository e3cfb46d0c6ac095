// The highlight chunk (loaded by ./lazy.ts): highlight.js with its languages (./highlight-languages.ts)
// and the code colours, a stylesheet that comes with the chunk.
import "./code-theme.css";

export { highlightToHtml } from "./highlight-languages";
