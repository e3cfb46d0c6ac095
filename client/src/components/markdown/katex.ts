// The maths chunk (loaded by ./lazy.ts): KaTeX (./katex-render.ts), its stylesheet and, through that,
// its fonts, files under /assets/ (client/vite.config.ts never inlines them: the CSP's font-src is 'self').
import "katex/dist/katex.min.css";

export { texToHtml } from "./katex-render";
