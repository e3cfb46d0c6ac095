// The composer's Options button and its small panel: this message's step limit and approach (the
// decision tree the agent follows), each left on "as in Settings" unless changed. A dot on the
// button says when something differs from Settings.
import { usePopover } from "../../lib/use-popover";
import { Icon } from "../../ui/icon";
import style from "./style.module.css";

/** The decision trees, as a user would choose between them. */
const APPROACHES = [
  { tree: "default", label: "Direct: use tools as needed" },
  { tree: "roa", label: "Careful: plan, act, then check" },
] as const;

type Props = {
  maxSteps: string;
  decisionTree: string;
  onMaxSteps: (value: string) => void;
  onDecisionTree: (value: string) => void;
};

export function ComposerOptions({ maxSteps, decisionTree, onMaxSteps, onDecisionTree }: Props) {
  const { open, toggle, button, panel, onKeyDown } = usePopover();
  const changed = maxSteps !== "" || decisionTree !== "";
  return (
    <div class={style.optionsAnchor}>
      <button
        ref={button}
        type="button"
        class={style.optionsButton}
        aria-expanded={open ? "true" : "false"}
        aria-controls="composer-options"
        aria-label={changed ? "Options for this message (changed)" : "Options for this message"}
        title="Options for this message"
        onClick={toggle}
        onKeyDown={onKeyDown}
        data-testid="composer-options-button"
        data-changed={changed ? "true" : "false"}
      >
        <Icon name="sliders" size="18px" />
        {changed && <span class={style.changedDot} aria-hidden="true" />}
      </button>
      {open && (
        // biome-ignore lint/a11y/noStaticElementInteractions: Escape inside the panel closes it
        <div
          ref={panel}
          id="composer-options"
          class={style.options}
          onKeyDown={onKeyDown}
          data-testid="composer-options"
        >
          <label class={style.control}>
            <span>Step limit</span>
            <input
              type="number"
              min={1}
              max={50}
              step={1}
              value={maxSteps}
              placeholder="as in Settings"
              class={style.steps}
              onInput={(event) => onMaxSteps(event.currentTarget.value)}
              data-testid="max-steps"
            />
          </label>
          <label class={style.control}>
            <span>Approach</span>
            <select
              value={decisionTree}
              onChange={(event) => onDecisionTree(event.currentTarget.value)}
              data-testid="decision-tree"
            >
              <option value="">As in Settings</option>
              {APPROACHES.map(({ tree, label }) => (
                <option key={tree} value={tree}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <p class={style.optionsNote}>For the next messages in this chat. Defaults live in Settings.</p>
        </div>
      )}
    </div>
  );
}
