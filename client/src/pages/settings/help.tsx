// Settings → Help: the keyboard shortcuts (lib/use-shortcuts.ts), with ⌘ on a Mac and Ctrl elsewhere.
import { Fragment } from "preact";
import { PLACE_KEYS, SHORTCUTS } from "../../lib/use-shortcuts";
import style from "./style.module.css";

const MAC = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

function Keys({ keys }: { keys: string[] }) {
  return (
    <>
      {keys.map((key, index) => (
        <span key={key}>
          {index > 0 && " + "}
          <kbd>{key === "Mod" ? (MAC ? "⌘" : "Ctrl") : key}</kbd>
        </span>
      ))}
    </>
  );
}

export function Help() {
  return (
    <section aria-labelledby="shortcuts-title" data-testid="help">
      <h2 id="shortcuts-title" class={style.helpTitle}>
        Keyboard shortcuts
      </h2>
      <dl class={style.shortcuts} data-testid="shortcuts">
        {[...SHORTCUTS, ...PLACE_KEYS].map(({ keys, does }) => (
          <Fragment key={does}>
            <dt>
              <Keys keys={keys} />
            </dt>
            <dd>{does}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
