// "New schedule": the conversation to post into (a new one, named after the schedule, unless the user
// picks one of theirs, the newest first) and the draft's fields. What is missing is said before
// anything is sent; a refusal in words (explainScheduleError).
import { useEffect, useState } from "preact/hooks";
import type { Conversation } from "../../../../protocol";
import { pageStyle as page } from "../../components/page-frame";
import { FormError, SubmitButton, useFormSubmit } from "../../components/settings-form";
import { requestJson } from "../../lib/api";
import { announceConversations } from "../../lib/conversation-groups";
import { ConversationListSchema } from "../../lib/response-schemas";
import { browserTimeZone, explainScheduleError, type ScheduleInput, type useSchedules } from "../../lib/use-schedules";
import { type Draft, draftZone, EMPTY, ruleOf } from "./draft";
import { DraftFields } from "./draft-fields";
import style from "./style.module.css";

type Props = {
  add: ReturnType<typeof useSchedules>["add"];
  /** Says what was scheduled, or clears the page's line when a new try starts. */
  onStatus: (text: string | null) => void;
};

/** The picker's value for "A new conversation": never an id. */
const NEW = "";

/** What the draft still lacks before it can be sent, in words. */
function missing(draft: Draft): string | null {
  if (!draft.text.trim()) return "Write the message to post first.";
  if (draft.kind === "once" && !draft.at) return "Pick the date and time first.";
  if (draft.kind === "cron" && !draft.repeat.trim()) return "Write the rule first.";
  return null;
}

function useConversations() {
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [conversationId, setConversationId] = useState(NEW);
  const load = () =>
    void requestJson("/api/conversations", ConversationListSchema).then((result) => {
      if (result.ok) setConversations(result.data);
    });
  useEffect(load, []);
  return { conversations, conversationId, setConversationId, reload: load };
}

export function NewScheduleForm({ add, onStatus }: Props) {
  const { conversations, conversationId, setConversationId, reload } = useConversations();
  const [draft, setDraft] = useState<Draft>({ ...EMPTY, time_zone: browserTimeZone() });
  const form = useFormSubmit([]);

  const submit = async () => {
    onStatus(null);
    const problem = missing(draft);
    if (problem) return form.setFormError(problem);
    const zone = draftZone(draft, browserTimeZone());
    if ("problem" in zone) return form.setFormError(`Could not create the schedule: ${zone.problem}`);
    const input: ScheduleInput = {
      ...(conversationId === NEW ? {} : { conversation_id: conversationId }),
      text: draft.text.trim(),
      time_zone: zone.zone,
      ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
      ...ruleOf(draft),
    };
    const result = await form.send(() => add(input));
    if (!result.ok) return form.setFormError(explainScheduleError(result.error, "create the schedule"));
    setDraft({ ...EMPTY, time_zone: zone.zone });
    form.setFormError(null);
    if (conversationId === NEW) {
      // Its conversation is new: the picker and the sidebar list it.
      reload();
      announceConversations();
      onStatus(`✓ Scheduled “${result.data.name}” in a new conversation`);
    } else onStatus(`✓ Scheduled “${result.data.name}”`);
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
          aria-describedby="new-schedule-conversation-hint"
          data-testid="schedule-conversation"
        >
          <option value={NEW}>A new conversation</option>
          {conversations.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
        <span id="new-schedule-conversation-hint" class={style.hint} data-testid="schedule-conversation-hint">
          {conversationId === NEW
            ? "A conversation of its own is made for it, named after the schedule."
            : "Each run posts the message at the end of this conversation."}
        </span>
      </label>
      <DraftFields draft={draft} onChange={setDraft} idPrefix="new" />
      <SubmitButton saving={form.saving} label="Schedule" savingLabel="Scheduling…" testid="schedule-create" />
      <FormError error={form.formError} testid="schedule-error" class={page.statusError} />
    </form>
  );
}
