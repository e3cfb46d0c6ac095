// What the loop needs from the conversation object: the persisted log, live frames, the event bus
// with its injection points, and a way to ask the user.
import type { Message, MessageDraft, ServerFrame } from "../protocol";
import type { EventDraft, InjectionPoint } from "./events";
import type { InputOutcome } from "./tools/request-input";

export interface TurnIO {
  messages(): readonly Message[];
  append(draft: MessageDraft): Promise<Message>;
  send(frame: ServerFrame): void;
  emit(event: EventDraft): void;
  /** Persists the notifications due at this point of the turn, before the loop goes on. */
  flush(point: InjectionPoint): Promise<void>;
  askUser(question: string, step: number, signal: AbortSignal, callId: string): Promise<InputOutcome>;
  /** Called before every model request: where durable reminders are committed to the log. */
  beforeModelRequest(): Promise<void>;
}
