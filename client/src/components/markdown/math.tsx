// A formula: its TeX source (monospace) until the KaTeX chunk is there (./lazy.ts, loaded by the first
// formula on screen), then KaTeX's rendering, built as elements from the allowed markup. A formula KaTeX
// refuses stays its source. Display maths scrolls sideways on a narrow screen rather than overflow.
import { maths, renderedMath, useLazy } from "./lazy";
import { renderMarkup } from "./markup";
import style from "./style.module.css";

export function MathFormula({ tex, display, block = false }: { tex: string; display: boolean; block?: boolean }) {
  const ready = useLazy(maths, true);
  const tree = ready ? renderedMath(tex, display) : null;
  const Tag = block ? "div" : "span";
  const className = display ? style.mathDisplay : style.math;
  if (!tree)
    return (
      <Tag class={`${className} ${style.mathSource}`} data-testid="math" data-pending={ready ? undefined : ""}>
        {tex}
      </Tag>
    );
  return (
    <Tag class={className} data-testid="math" data-rendered="">
      {renderMarkup(tree)}
    </Tag>
  );
}
