// The Agent tab: every AgentConfig field from the protocol's AGENT_CONFIG_FIELDS (so bounds, units and
// labels cannot drift from the server), plus the decision tree. Changes save themselves.
import { AGENT_CONFIG_FIELDS, type NumericConfigField } from "../../../../protocol";
import { useAgentSettings } from "../../lib/use-agent-settings";
import { ConfigField, FieldError, SaveStatus } from "../config-field";
import style from "./style.module.css";

const DECISION_TREES = ["default", "roa"];
const FIELD_NAMES = Object.keys(AGENT_CONFIG_FIELDS) as NumericConfigField[];

export function AgentSettings() {
  const { fields, loadError, change } = useAgentSettings();
  if (loadError)
    return (
      <p class={style.error} data-testid="agent-settings-error">
        {loadError}
      </p>
    );
  if (!fields) return <p class={style.muted}>Loading…</p>;
  const tree = fields.decisionTree;
  const trees = DECISION_TREES.includes(tree.draft) ? DECISION_TREES : [...DECISION_TREES, tree.draft];

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
            state={fields[name]}
            onChange={(draft) => change(name, draft)}
          />
        );
      })}
      <div class={style.tree}>
        <label for="agent-decisionTree" class={style.label}>
          Decision tree
        </label>
        <select
          id="agent-decisionTree"
          value={tree.draft}
          onChange={(event) => change("decisionTree", event.currentTarget.value)}
          data-testid="agent-field-decisionTree"
        >
          {trees.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <SaveStatus name="decisionTree" state={tree} />
        <FieldError name="decisionTree" error={tree.error} />
      </div>
    </section>
  );
}
