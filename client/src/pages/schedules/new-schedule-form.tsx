// "New schedule": the conversation to post into (the user's conversations, the newest first) and the
// draft's fields. What is missing is said before anything is sent; a refusal in words (explainScheduleError).
import { useEffect, useState } from "preact/hooks";
import type { Conversation } from "../../../../protocol";
import { pageStyle as page } from "../../components/page-frame";
import { FormError, SubmitButton, useFormSubmit } from "../../components/settings-form";
import { requestJson } from "../../lib/api";
import { ConversationListSchema } from "../../lib/response-schemas";
import { browserTimeZone, explainScheduleError, type ScheduleInput, type useSchedules } from "../../lib/use-schedules";
import { type Draft, EMPTY, ruleOf } from "./draft";
import { DraftFields } from "./draft-fields";
import style from "./style.module.css";

type Props = {
  add: ReturnType<typeof useSchedules>["add"];
  /** Says what was scheduled, or clears the page's line when a new try starts. */
  onStatus: (text: string | null) => void;
};

/** What the draft still lacks before it can be sent, in words. */
function missing(conversationId: string, draft: Draft): string | null {
  if (!conversationId) return "Pick a conversation first.";
  if (!draft.text.trim()) return "Write the message to post first.";
  if (draft.kind === "once" && !draft.at) return "Pick the date and time first.";
  if (draft.kind === "cron" && !draft.repeat.trim()) return "Write the rule first.";
  return null;
}

function useConversations() {
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [conversationId, setConversationId] = useState("");
  useEffect(() => {
    void requestJson("/api/conversations", ConversationListSchema).then((result) => {
      if (!result.ok) return;
      setConversations(result.data);
      setConversationId((current) => current || result.data[0]?.id || "");
    });
  }, []);
  return { conversations, conversationId, setConversationId };
}

export function NewScheduleForm({ add, onStatus }: Props) {
  const { conversations, conversationId, setConversationId } = useConversations();
  const [draft, setDraft] = useState<Draft>({ ...EMPTY, time_zone: browserTimeZone() });
  const form = useFormSubmit([]);

  const submit = async () => {
    onStatus(null);
    const problem = missing(conversationId, draft);
    if (problem) return form.setFormError(problem);
    const input: ScheduleInput = {
      conversation_id: conversationId,
      text: draft.text.trim(),
      time_zone: draft.time_zone.trim() || browserTimeZone(),
      ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
      ...ruleOf(draft),
    };
    const result = await form.send(() => add(input));
    if (!result.ok) return form.setFormError(explainScheduleError(result.error, "create the schedule"));
    setDraft({ ...EMPTY, time_zone: draft.time_zone });
    form.setFormError(null);
    onStatus(`✓ Scheduled “${result.data.name}”`);
  };

  return (
    <form
      class={style.form}
      onSubmit={form.submit(submit)}
      data-testid="schedule-form"
      aria-labelledby="new-schedule-title"
    >
      <label>
        Conversation
        <select
          value={conversationId}
          onChange={(e) => setConversationId(e.currentTarget.value)}
          data-testid="schedule-conversation"
        >
          {conversations.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
      </label>
      <DraftFields draft={draft} onChange={setDraft} idPrefix="new" />
      <SubmitButton saving={form.saving} label="Schedule" savingLabel="Scheduling…" testid="schedule-create" />
      <FormError error={form.formError} testid="schedule-error" class={page.statusError} />
    </form>
  );
}
