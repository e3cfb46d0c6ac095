// The Agent tab: every AgentConfig field from the protocol's AGENT_CONFIG_FIELDS (so bounds, units,
// labels and defaults cannot drift from the server), each with a sentence on what it does, plus the
// decision tree. Changes save themselves; "Reset to defaults" (after a confirm) saves every default.
import { useEffect, useRef, useState } from "preact/hooks";
import { AGENT_CONFIG_FIELDS, DEFAULT_AGENT_CONFIG, type NumericConfigField } from "../../../../../protocol";
import { ConfigField, FieldError, FieldHelp, SaveStatus } from "../../../components/config-field";
import { type ConfigFieldName, useAgentSettings } from "../../../lib/use-agent-settings";
import style from "./style.module.css";

const DECISION_TREES = ["default", "roa"];
const FIELD_NAMES = Object.keys(AGENT_CONFIG_FIELDS) as NumericConfigField[];

/** What each setting does, as agent/ applies it. */
export const FIELD_HELP: Record<ConfigFieldName, string> = {
  maxIterations:
    "How many steps the agent may take in one turn; a step is one model call and the tools it asks for. At the limit the turn stops and says so: ask it to continue.",
  softWarningPercent:
    "When this share of Max iterations is used, the agent is told to start wrapping up (at least two steps before the limit).",
  tokenBudget:
    "How many tokens (input and output, all model calls together) one turn may use. When they are used up, the turn stops.",
  tokenWarningPercent:
    "When this share of the token budget, or of the timeout, is used, the agent is told to start wrapping up.",
  timeoutSeconds: "The longest one turn may run. At the limit it stops, with a short wrap-up if there is time.",
  maxToolCallsPerTurn: "The most tool calls the agent may make in a single step; calls beyond it are skipped.",
  maxParallelTools: "How many of a step's tool calls may run at the same time; the others wait for a free slot.",
  requestInputTimeoutSeconds:
    "When the agent asks you a question, how long it waits for your answer before the turn stops.",
  taskReminderRequests:
    "While you have open tasks, the agent is reminded of them after this many model requests without a task tool. 0 turns reminders off.",
  webSearchesPerTurn:
    "The most web searches the agent may make in one turn (its subagents count their own). Past it, it answers with what it found.",
  decisionTree:
    "How the agent works through a turn. default: it calls tools until it answers without one. roa: every step is reason (plan, no tools), act (tools), observe (no tools).",
};

export function AgentSettings() {
  const { fields, loadError, change, reset, resetState, atDefaults } = useAgentSettings();
  if (loadError)
    return (
      <p class={style.error} data-testid="agent-settings-error">
        {loadError}
      </p>
    );
  if (!fields) return <p class={style.muted}>Loading…</p>;
  return (
    <section data-testid="agent-settings">
      <p class={style.intro}>Limits for every turn of the agent. Changes are saved automatically.</p>
      {FIELD_NAMES.map((name) => {
        const spec = AGENT_CONFIG_FIELDS[name];
        return (
          <ConfigField
            key={name}
            name={name}
            label={spec.label}
            min={spec.min}
            max={spec.max}
            unit={spec.unit}
            help={FIELD_HELP[name]}
            defaultValue={spec.default}
            state={fields[name]}
            onChange={(draft) => change(name, draft)}
          />
        );
      })}
      <DecisionTreeField state={fields.decisionTree} onChange={(draft) => change("decisionTree", draft)} />
      <ResetToDefaults reset={reset} resetState={resetState} atDefaults={atDefaults} />
    </section>
  );
}

type Settings = ReturnType<typeof useAgentSettings>;

/** The decision tree: a choice of the known ones (and the saved one, if the server knows another). */
function DecisionTreeField({
  state: tree,
  onChange,
}: {
  state: NonNullable<Settings["fields"]>["decisionTree"];
  onChange: (draft: string) => void;
}) {
  const trees = DECISION_TREES.includes(tree.draft) ? DECISION_TREES : [...DECISION_TREES, tree.draft];
  return (
    <div class={style.tree}>
      <div class={style.treeRow}>
        <label for="agent-decisionTree" class={style.label}>
          Decision tree
        </label>
        <select
          id="agent-decisionTree"
          value={tree.draft}
          aria-describedby="agent-decisionTree-help"
          onChange={(event) => onChange(event.currentTarget.value)}
          data-testid="agent-field-decisionTree"
        >
          {trees.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <SaveStatus name="decisionTree" state={tree} />
      </div>
      <FieldHelp
        id="agent-decisionTree-help"
        name="decisionTree"
        help={FIELD_HELP.decisionTree}
        defaultValue={DEFAULT_AGENT_CONFIG.decisionTree}
      />
      <FieldError name="decisionTree" error={tree.error} />
    </div>
  );
}

/** "Reset to defaults", after a confirm that takes the focus (Cancel gives it back to the button). */
function ResetToDefaults({ reset, resetState, atDefaults }: Pick<Settings, "reset" | "resetState" | "atDefaults">) {
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const resetButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
    else if (refocus.current) resetButton.current?.focus();
    refocus.current = false;
  }, [confirming]);
  const closeConfirm = () => {
    refocus.current = true;
    setConfirming(false);
  };
  return (
    <div class={style.reset} data-testid="agent-reset">
      {confirming ? (
        <div class={style.confirm}>
          <p class={style.confirmText} id="agent-reset-question">
            Set every agent setting back to its default?
          </p>
          <button type="button" onClick={closeConfirm} data-testid="agent-reset-cancel">
            Cancel
          </button>
          <button
            type="button"
            ref={confirmButton}
            class={style.danger}
            aria-describedby="agent-reset-question"
            onClick={() => {
              closeConfirm();
              void reset();
            }}
            data-testid="agent-reset-confirm"
          >
            Reset
          </button>
        </div>
      ) : (
        <button
          type="button"
          ref={resetButton}
          onClick={() => setConfirming(true)}
          disabled={atDefaults || resetState.status === "saving"}
          title={atDefaults ? "Every setting already has its default value" : undefined}
          data-testid="agent-reset-button"
        >
          {resetState.status === "saving" ? "Resetting…" : "Reset to defaults"}
        </button>
      )}
      {resetState.status === "done" && (
        <span class={style.ok} role="status" data-testid="agent-reset-status">
          ✓ Every setting is back to its default
        </span>
      )}
      {resetState.status === "failed" && (
        <span class={style.error} role="alert" data-testid="agent-reset-status">
          {resetState.message}
        </span>
      )}
    </div>
  );
}
