// Untrusted text (model output, tool results, user input) as paragraphs: split on blank lines, single
// line breaks kept by CSS. Text nodes only, so nothing in it can become markup.
import style from "./style.module.css";

export function PlainText({ text }: { text: string }) {
  const paragraphs = text.split(/\n{2,}/).filter((p) => p.trim() !== "");
  return (
    <div class={style.text}>
      {paragraphs.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </div>
  );
}
