// The model `hello` names, and the meter of the context's size: what the turn keeps in the object's
// own SQLite (local_state, log/local-tables.ts) between turns.
import { ContextMeter, type Observation } from "../../../agent/context/window";
import { type LlmSettings, llmSettings, publicModelInfo } from "../../../agent/llm/config";
import { type ModelInfo, ModelInfoSchema } from "../../../protocol";
import { readState, writeState } from "../log/local-tables";

/** local_state: the ModelInfo of the conversation's latest turn (hello's `model`). */
const LAST_MODEL = "last_model";
const CONTEXT_METER_KEY = "context_meter";

/** The model `hello` names: the one the conversation's latest turn used, else the operator's. */
export function helloModel(sql: SqlStorage, env: Env): ModelInfo {
  const saved = readState(sql, LAST_MODEL);
  if (saved) {
    const parsed = ModelInfoSchema.safeParse(JSON.parse(saved));
    if (parsed.success) return parsed.data;
  }
  return publicModelInfo(llmSettings(env));
}

/** What `hello` names from now on: the model this conversation last used. */
export function rememberModel(sql: SqlStorage, llm: LlmSettings): void {
  writeState(sql, LAST_MODEL, JSON.stringify(publicModelInfo(llm)));
}

/**
 * A meter that keeps its last observation in the object's own SQLite. The observation is written with
 * the turn's next write (before its next model request, at its end), not as the answer arrives: a
 * commit there would hold back the step's tool call. Lost in a crash, the next request is sized from
 * the estimate alone.
 */
export function storedMeter(sql: SqlStorage): { meter: ContextMeter; save(): void } {
  let last: Observation | undefined;
  try {
    last = JSON.parse(readState(sql, CONTEXT_METER_KEY) ?? "null") ?? undefined;
  } catch {
    last = undefined;
  }
  let unsaved: Observation | undefined;
  return {
    meter: new ContextMeter(last, (o) => {
      unsaved = o;
    }),
    save() {
      if (unsaved) writeState(sql, CONTEXT_METER_KEY, JSON.stringify(unsaved));
      unsaved = undefined;
    },
  };
}
