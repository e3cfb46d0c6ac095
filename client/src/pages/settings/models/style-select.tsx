// The API style choice, in the add form (where it can also be detected) and on each provider, with the
// sentence that tells the two apart.
import type { ApiStyle } from "../../../../../protocol";
import { SelectField } from "../../../components/settings-form";
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

const HINT =
  "Chat Completions works with almost every server (llama.cpp, vLLM, Ollama, OpenRouter…); the Responses API is OpenAI's newer one.";

export function StyleSelect({ id, value, onChange, detect = false, error, testid }: Props) {
  return (
    <SelectField id={id} label="API style" value={value} onChange={onChange} hint={HINT} error={error} testid={testid}>
      {detect && <option value="">Detect automatically</option>}
      <option value="chat">{STYLE_NAMES.chat}</option>
      <option value="responses">{STYLE_NAMES.responses}</option>
    </SelectField>
  );
}
