// The Agent settings tab's state (seed 001 FR-016…018): every field's draft text, inline error and save
// status. A change is checked locally with AgentConfigPatchSchema, then saved alone after a 400 ms pause
// (PUT /api/settings/agent); server field errors land next to their field. There is no Save button.
// "Reset to defaults" saves the protocol's DEFAULT_AGENT_CONFIG whole, dropping any change still waiting.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { type AgentConfig, AgentConfigPatchSchema, DEFAULT_AGENT_CONFIG } from "../../../protocol";
import { requestJson } from "./api";
import { AgentConfigResponseSchema } from "./response-schemas";

export type ConfigFieldName = keyof AgentConfig;
export type FieldState = { draft: string; error: string | null; status: "idle" | "saving" | "saved" };
type Fields = Record<ConfigFieldName, FieldState>;
export type ResetState = { status: "idle" | "saving" | "done" } | { status: "failed"; message: string };

const SAVE_DELAY_MS = 400;

function fieldsFrom(config: AgentConfig): Fields {
  const entries = Object.entries(config).map(([name, value]) => [
    name,
    { draft: String(value), error: null, status: "idle" },
  ]);
  return Object.fromEntries(entries) as Fields;
}

function parseDraft(name: ConfigFieldName, draft: string): unknown {
  if (name === "decisionTree") return draft;
  return draft.trim() === "" ? Number.NaN : Number(draft);
}

export function useAgentSettings() {
  const [fields, setFields] = useState<Fields | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [resetState, setResetState] = useState<ResetState>({ status: "idle" });
  const timers = useRef(new Map<ConfigFieldName, { timer: ReturnType<typeof setTimeout>; save: () => void }>());
  // Each change bumps its field's version; a response for an older version is stale and ignored.
  const versions = useRef(new Map<ConfigFieldName, number>());

  const patchField = useCallback((name: ConfigFieldName, patch: Partial<FieldState>) => {
    setFields((current) => (current ? { ...current, [name]: { ...current[name], ...patch } } : current));
  }, []);

  useEffect(() => {
    void requestJson("/api/settings/agent", AgentConfigResponseSchema).then((result) => {
      if (result.ok) setFields(fieldsFrom({ ...DEFAULT_AGENT_CONFIG, ...result.data }));
      else if (result.error.status === 404) setLoadError("Agent settings are not available yet");
      else setLoadError(`Could not load your agent settings: ${result.error.message}`);
    });
    const pending = timers.current;
    // Leaving the page must not lose a change still waiting out its debounce.
    return () => {
      for (const { timer, save } of pending.values()) {
        clearTimeout(timer);
        save();
      }
    };
  }, []);

  const save = useCallback(
    async (name: ConfigFieldName, value: unknown, version: number) => {
      timers.current.delete(name);
      patchField(name, { status: "saving" });
      const result = await requestJson("/api/settings/agent", AgentConfigResponseSchema, "PUT", {
        [name]: value,
      });
      if (versions.current.get(name) !== version) return;
      if (result.ok) return patchField(name, { status: "saved", error: null });
      const { fields: serverFields, message } = result.error;
      patchField(name, { status: "idle", error: serverFields[name] ?? message });
    },
    [patchField],
  );

  const change = useCallback(
    (name: ConfigFieldName, draft: string) => {
      const version = (versions.current.get(name) ?? 0) + 1;
      versions.current.set(name, version);
      const pending = timers.current.get(name);
      if (pending) clearTimeout(pending.timer);
      timers.current.delete(name);

      const value = parseDraft(name, draft);
      const check = AgentConfigPatchSchema.safeParse({ [name]: value });
      if (!check.success) {
        patchField(name, { draft, status: "idle", error: check.error.issues[0]?.message ?? "Invalid value" });
        return;
      }
      patchField(name, { draft, status: "idle", error: null });
      setResetState({ status: "idle" });
      const run = () => void save(name, value, version);
      timers.current.set(name, { timer: setTimeout(run, SAVE_DELAY_MS), save: run });
    },
    [patchField, save],
  );

  const reset = useCallback(async () => {
    // Whatever is still waiting to be saved, or on its way, is overtaken by the reset.
    for (const { timer } of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    for (const name of Object.keys(DEFAULT_AGENT_CONFIG) as ConfigFieldName[])
      versions.current.set(name, (versions.current.get(name) ?? 0) + 1);
    setResetState({ status: "saving" });
    const result = await requestJson("/api/settings/agent", AgentConfigResponseSchema, "PUT", DEFAULT_AGENT_CONFIG);
    if (!result.ok) {
      setResetState({ status: "failed", message: `Could not reset your settings: ${result.error.message}` });
      return;
    }
    setFields(fieldsFrom({ ...DEFAULT_AGENT_CONFIG, ...result.data }));
    setResetState({ status: "done" });
  }, []);

  /** Every field shows its default (so a reset would change nothing). */
  const atDefaults =
    fields !== null &&
    (Object.keys(DEFAULT_AGENT_CONFIG) as ConfigFieldName[]).every(
      (name) => fields[name].draft.trim() === String(DEFAULT_AGENT_CONFIG[name]),
    );

  return { fields, loadError, change, reset, resetState, atDefaults };
}
