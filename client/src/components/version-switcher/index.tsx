// ‹ 2/3 › under a message that has versions (an edited question, a regenerated answer): Previous and
// Next show the neighbouring version with what followed it on its branch. When another version changed
// notes or tasks (or ran an MCP tool), a quiet line says those changes stay: switching only changes
// what the chat and the model read. `blocked` (a turn is running…) disables both with the reason.
import hidden from "../../ui/visually-hidden/style.module.css";
import style from "./style.module.css";

type Props = {
  /** The version shown (its first message's seq). */
  seq: number;
  /** 0-based: which version is shown. */
  index: number;
  count: number;
  /** Shows version `index` (0-based). */
  onShow: (index: number) => void;
  /** Why switching is not possible now (shown as the buttons' tooltip), or null. */
  blocked?: string | null;
  /** Another version changed something outside the log (notes, tasks, an MCP server). */
  changesStay?: boolean;
  align?: "start" | "end";
};

export const CHANGES_STAY = "Changes to notes and tasks made in other versions stay.";

export function VersionSwitcher({ seq, index, count, onShow, blocked, changesStay, align = "start" }: Props) {
  const reason = blocked ?? undefined;
  return (
    <>
      <fieldset class={style.switcher} aria-label="Versions" data-testid="version-switcher" data-version-seq={seq}>
        <button
          type="button"
          class={style.step}
          aria-label="Previous version"
          title={reason ?? "Previous version"}
          disabled={index === 0 || !!blocked}
          onClick={() => onShow(index - 1)}
          data-testid="version-previous"
        >
          ‹
        </button>
        <span class={style.count} data-testid="version-count">
          <span aria-hidden="true">
            {index + 1}/{count}
          </span>
          <span class={hidden.visuallyHidden}>
            Version {index + 1} of {count}
          </span>
        </span>
        <button
          type="button"
          class={style.step}
          aria-label="Next version"
          title={reason ?? "Next version"}
          disabled={index === count - 1 || !!blocked}
          onClick={() => onShow(index + 1)}
          data-testid="version-next"
        >
          ›
        </button>
      </fieldset>
      {changesStay && (
        <p class={`${style.stay} ${align === "end" ? style.end : ""}`} data-testid="versions-changes-stay">
          {CHANGES_STAY}
        </p>
      )}
    </>
  );
}
