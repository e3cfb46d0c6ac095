// The Schedules page's data over /api/schedules (worker/routes/schedules.ts): the list, create, edit,
// pause/resume and delete, each answered with the server's schedule or its reason in words.
import { useCallback } from "preact/hooks";
import type { z } from "zod";
import {
  type Schedule,
  ScheduleListSchema,
  type SchedulePatchSchema,
  ScheduleSchema,
} from "../../../protocol/schedules";
import { type ApiError, type ApiResult, requestEmpty, requestJson } from "./api";

export { browserTimeZone } from "./time-zone";

import { type ListState, useList } from "./use-list";

export type { Schedule };
export type ScheduleListState = ListState<Schedule>;
export type ScheduleInput = {
  /** Absent: a new conversation, named after the schedule. */
  conversation_id?: string;
  name?: string;
  text: string;
  at?: string;
  repeat?: string;
  time_zone?: string;
};
export type ScheduleChanges = z.input<typeof SchedulePatchSchema>;

const schedulePath = (id: string) => `/api/schedules/${encodeURIComponent(id)}`;

/** The browser's IANA time zone. */

/** The form's words for the API's field names, which start the server's reasons ("repeat runs more often…"). */
const FIELD_WORDS: Record<string, string> = {
  repeat: "the rule",
  at: "the date and time",
  time_zone: "the time zone",
  text: "the message",
  name: "the name",
  conversation_id: "the conversation",
};

/** A server's reason with the field it names in the form's words: "the rule runs more often than every 15 minutes". */
function inWords(message: string): string {
  // A refused body names the field twice ("time_zone: time_zone is not…"): once is enough.
  const m = /^(\w+)(?::\s*\1\b|\b)(.*)$/s.exec(message);
  const words = m?.[1] ? FIELD_WORDS[m[1]] : undefined;
  return words ? `${words}${m?.[2] ?? ""}` : message;
}

/** An API failure in words a person can act on. */
export function explainScheduleError(error: ApiError, doing: string): string {
  if (error.status === 0) return `Could not ${doing}: the server cannot be reached. Check your connection.`;
  if (error.status === 401) return `Could not ${doing}: you are signed out. Sign in again.`;
  if (error.status === 404) return `Could not ${doing}: ${error.message.toLowerCase()}.`;
  if (error.status === 400 || error.status === 409) return `Could not ${doing}: ${inWords(error.message)}.`;
  if (error.status >= 500) return `Could not ${doing}: something went wrong on the server. Try again.`;
  return `Could not ${doing}: ${error.message}`;
}

const loadSchedules = async (): Promise<ApiResult<Schedule[]>> => {
  const result = await requestJson("/api/schedules", ScheduleListSchema);
  return result.ok ? { ok: true, data: result.data.schedules } : result;
};
const explainLoad = (error: ApiError) => explainScheduleError(error, "load your schedules");

export function useSchedules() {
  const { list, reload, update } = useList(loadSchedules, explainLoad);

  const replace = useCallback(
    (schedule: Schedule) => update((all) => all.map((s) => (s.id === schedule.id ? schedule : s))),
    [update],
  );

  const add = useCallback(
    async (input: ScheduleInput): Promise<ApiResult<Schedule>> => {
      const result = await requestJson("/api/schedules", ScheduleSchema, "POST", input);
      if (result.ok) update((all) => [...all, result.data]);
      return result;
    },
    [update],
  );

  const change = useCallback(
    async (schedule: Schedule, changes: ScheduleChanges): Promise<ApiResult<Schedule>> => {
      const result = await requestJson(schedulePath(schedule.id), ScheduleSchema, "PATCH", changes);
      if (result.ok) replace(result.data);
      else if (result.error.status === 404) update((all) => all.filter((s) => s.id !== schedule.id));
      return result;
    },
    [replace, update],
  );

  const remove = useCallback(
    async (schedule: Schedule): Promise<ApiResult<null>> => {
      const result = await requestEmpty(schedulePath(schedule.id), "DELETE");
      if (result.ok || result.error.status === 404) update((all) => all.filter((s) => s.id !== schedule.id));
      return result;
    },
    [update],
  );

  return { list, reload, add, change, remove };
}
