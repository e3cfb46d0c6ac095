// Requests of the user's MCP servers made during a tool call (issue 40, MCP elicitation), one card each
// above the composer, as approvals are: which server asks and what for, then either a form with the
// fields it asked for (their defaults filled in) or a link it asks the user to open, opened only when
// the user clicks. Accept / Decline / Cancel answer it; an answer from another tab, the deadline or a
// Stop removes the card here too. Every text on it is the server's, defused by the Worker and shown as
// text, never markup.
import { useState } from "preact/hooks";
import {
  checkElicitationAnswer,
  type ElicitationAction,
  type ElicitationField,
  type ElicitationValue,
  type PendingElicitation,
} from "../../../../protocol";
import { Deadline } from "../../ui/deadline";
import frame from "../approval-cards/style.module.css";
import style from "./style.module.css";

export type ElicitationAnswer = {
  elicitation_id: string;
  action: ElicitationAction;
  content?: Record<string, ElicitationValue>;
};

type Props = { pending: readonly PendingElicitation[]; onAnswer: (answer: ElicitationAnswer) => boolean };

type Draft = Record<string, ElicitationValue | undefined>;

const INPUT_TYPES = { email: "email", uri: "url", date: "date", "date-time": "datetime-local" } as const;

/** The form's values as the server gets them: a field left empty is left out (its default applies). */
function contentOf(fields: readonly ElicitationField[], draft: Draft): Record<string, ElicitationValue> {
  const content: Record<string, ElicitationValue> = {};
  for (const field of fields) {
    const value = draft[field.name];
    if (value === undefined || value === "") continue;
    content[field.name] = value;
  }
  return content;
}

function Field({
  field,
  value,
  set,
}: {
  field: ElicitationField;
  value: ElicitationValue | undefined;
  set: (v: ElicitationValue | undefined) => void;
}) {
  const id = `elicit-${field.name}`;
  const label = (
    <label for={id} class={style.fieldLabel}>
      {field.label}
      {field.required && <span aria-hidden="true"> *</span>}
    </label>
  );
  const hint = field.description && <small class={style.hint}>{field.description}</small>;
  switch (field.kind) {
    case "boolean":
      return (
        <div class={style.check}>
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(e) => set(e.currentTarget.checked)}
            data-field={field.name}
          />
          {label}
          {hint}
        </div>
      );
    case "choice":
      return (
        <div class={style.field}>
          {label}
          <select
            id={id}
            value={typeof value === "string" ? value : ""}
            onChange={(e) => set(e.currentTarget.value || undefined)}
            data-field={field.name}
          >
            {!field.required || value === undefined ? <option value="">Choose…</option> : null}
            {field.options?.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          {hint}
        </div>
      );
    case "choices": {
      const picked = Array.isArray(value) ? value : [];
      return (
        <fieldset class={style.field} data-field={field.name}>
          <legend class={style.fieldLabel}>{field.label}</legend>
          {field.options?.map((o) => (
            <label key={o.value} class={style.check}>
              <input
                type="checkbox"
                checked={picked.includes(o.value)}
                onChange={(e) =>
                  set(e.currentTarget.checked ? [...picked, o.value] : picked.filter((v) => v !== o.value))
                }
              />
              {o.label}
            </label>
          ))}
          {hint}
        </fieldset>
      );
    }
    default: {
      const numeric = field.kind === "number" || field.kind === "integer";
      // One of the input types preact's typings tell apart; each behaves as a text box here.
      const inputType = (numeric ? "number" : field.format ? INPUT_TYPES[field.format] : "text") as "text";
      return (
        <div class={style.field}>
          {label}
          <input
            id={id}
            type={inputType}
            value={value === undefined ? "" : String(value)}
            required={field.required}
            {...(numeric
              ? { min: field.min, max: field.max, step: field.kind === "integer" ? 1 : "any" }
              : { minLength: field.min, maxLength: field.max })}
            onInput={(e) => {
              const raw = e.currentTarget.value;
              set(numeric ? (raw === "" ? undefined : Number(raw)) : raw);
            }}
            data-field={field.name}
          />
          {hint}
        </div>
      );
    }
  }
}

function ElicitationCard({ pending, onAnswer }: { pending: PendingElicitation; onAnswer: Props["onAnswer"] }) {
  const fields = pending.fields ?? [];
  const [draft, setDraft] = useState<Draft>(() => Object.fromEntries(fields.map((f) => [f.name, f.default])));
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const answer = (action: ElicitationAction) => {
    let content: Record<string, ElicitationValue> | undefined;
    if (action === "accept" && pending.mode === "form") {
      content = contentOf(fields, draft);
      const wrong = checkElicitationAnswer(fields, content);
      if (wrong) return setProblem(wrong.message);
    }
    if (!onAnswer({ elicitation_id: pending.elicitation_id, action, ...(content ? { content } : {}) })) return;
    setSent(true);
    // URL mode: the link opens now, on this click, in a new tab that cannot reach back to this one.
    if (action === "accept" && pending.url) window.open(pending.url, "_blank", "noopener,noreferrer");
  };
  const host = pending.url ? new URL(pending.url).host : "";
  return (
    <section
      class={frame.card}
      data-testid="elicitation-card"
      data-mode={pending.mode}
      aria-label={`${pending.server} asks`}
    >
      <div class={frame.label}>
        {pending.server} asks
        <Deadline
          deadline={pending.deadline}
          lead="cancelled if not answered by"
          class={frame.deadline}
          testid="elicitation-deadline"
        />
      </div>
      <p class={style.message} data-testid="elicitation-message">
        {pending.message}
      </p>
      {pending.mode === "url" ? (
        <p class={style.link}>
          It asks you to open <strong>{host}</strong>:{" "}
          <span class={style.url} data-testid="elicitation-url">
            {pending.url}
          </span>
        </p>
      ) : (
        <form
          class={style.form}
          onSubmit={(e) => {
            e.preventDefault();
            answer("accept");
          }}
          id={`elicit-form-${pending.elicitation_id}`}
        >
          {fields.map((f) => (
            <Field key={f.name} field={f} value={draft[f.name]} set={(v) => setDraft((d) => ({ ...d, [f.name]: v }))} />
          ))}
        </form>
      )}
      {problem && (
        <p class={style.problem} role="alert" data-testid="elicitation-problem">
          {problem}
        </p>
      )}
      <div class={style.buttons}>
        <button type="button" disabled={sent} onClick={() => answer("cancel")} data-testid="elicitation-cancel">
          Cancel
        </button>
        <button type="button" disabled={sent} onClick={() => answer("decline")} data-testid="elicitation-decline">
          Decline
        </button>
        <button
          type="button"
          class={style.accept}
          disabled={sent}
          onClick={() => answer("accept")}
          data-testid="elicitation-accept"
        >
          {pending.mode === "url" ? "Open link" : "Send"}
        </button>
      </div>
    </section>
  );
}

export function ElicitationCards({ pending, onAnswer }: Props) {
  if (!pending.length) return null;
  return (
    <div class={`${frame.cards} ${style.tall}`} data-testid="elicitation-cards" aria-live="polite">
      {pending.map((p) => (
        <ElicitationCard key={p.elicitation_id} pending={p} onAnswer={onAnswer} />
      ))}
    </div>
  );
}
