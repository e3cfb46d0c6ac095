// A search snippet as text with its hits (between « and », see lib/snippet.ts) in <mark>. Text nodes only.
import { snippetParts } from "../../lib/snippet";

export function Snippet({ text }: { text: string }) {
  return (
    <span data-testid="snippet">
      {snippetParts(text).map((part, index) => (part.hit ? <mark key={index}>{part.text}</mark> : part.text))}
    </span>
  );
}
