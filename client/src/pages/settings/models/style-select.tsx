// The API style choice, in the add form (where it can also be detected) and on each provider, with the
// sentence that tells the two apart.
import type { ApiStyle } from "../../../../../protocol";
import { formStyle as kit } from "../../../components/settings-form";
import { STYLE_NAMES } from "./provider-status";

type Props = {
  id: string;
  value: ApiStyle | "";
  onChange: (value: ApiStyle | "") => void;
  /** Offers "Detect automatically" (the value ""): the server is asked which style answers. */
  detect?: boolean;
  error?: string;
  testid: string;
};

export function StyleSelect({ id, value, onChange, detect = false, error, testid }: Props) {
  const described = [`${id}-hint`, error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class={kit.field}>
      <label class={kit.label} for={id}>
        API style
      </label>
      <select
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(event) => onChange(event.currentTarget.value as ApiStyle | "")}
        data-testid={testid}
      >
        {detect && <option value="">Detect automatically</option>}
        <option value="chat">{STYLE_NAMES.chat}</option>
        <option value="responses">{STYLE_NAMES.responses}</option>
      </select>
      <span id={`${id}-hint`} class={kit.hint}>
        Chat Completions works with almost every server (llama.cpp, vLLM, Ollama, OpenRouter…); the Responses API is
        OpenAI's newer one.
      </span>
      {error && (
        <span id={`${id}-error`} class={kit.fieldError} role="alert" data-testid={`${testid}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}
