// What a turn needs from the conversation that hosts it: the persisted log, the port its live frames
// leave through, the event bus with its injection points, and a way to ask the user.
import type { Message, MessageDraft, ServerFrame } from "../../protocol";
import type { EventDraft, InjectionPoint } from "../events";
import type { ApprovalOutcome } from "../tools/approval";
import type { ElicitationAsk, ElicitationReply } from "../tools/elicitation";
import type { InputOutcome } from "../tools/request-input";
import type { Checkpoint } from "./resume";

/** The one way a frame leaves a turn; the host decides who gets it (every tab, a parent agent). */
export interface FramePort {
  send(frame: ServerFrame): void;
}

export interface TurnIO {
  messages(): readonly Message[];
  append(draft: MessageDraft): Promise<Message>;
  frames: FramePort;
  emit(event: EventDraft): void;
  /** Persists the notifications due at this point of the turn, before the loop goes on. */
  flush(point: InjectionPoint): Promise<void>;
  askUser(question: string, step: number, signal: AbortSignal, callId: string): Promise<InputOutcome>;
  /**
   * A call waits for the user's approval (tools/approval.ts) and gets their decision. Absent where
   * nobody can be asked (a subagent): a call that needs approval does not run.
   */
  askApproval?(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalOutcome>;
  /**
   * An MCP server asks the user during a call (tools/elicitation.ts) and gets their answer. Absent
   * where nobody can be asked (a subagent): the server is declined.
   */
  askElicitation?(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationReply>;
  /** Called before every model request: where durable reminders are committed to the log. */
  beforeModelRequest(): Promise<void>;
  /**
   * Called once a model request is answered (its first part has been passed on): background work that
   * must hold back neither the request as it leaves nor the first text (a D1 read or write) starts here,
   * overlapping the rest of the model's time.
   */
  modelResponding?(): void;
  /**
   * What a restart would resume from (resume.ts), before each model request and before each step's
   * tools run. The host keeps it durably; a write started here commits before the call's own requests
   * leave (the Durable Object's output gate), so it is never behind what the turn did.
   */
  checkpoint?(checkpoint: Checkpoint): void;
}

/** A call that waits for approval: what the card shows, and the rule key "Always allow" saves. */
export interface ApprovalRequest {
  call_id: string;
  tool: string;
  args: unknown;
  step: number;
  key: string;
  /** How long the call waits for a decision (the turn's requestInputTimeoutSeconds). */
  timeout_s: number;
}

/** A server's request waiting for the user: the card, the call it came in, how long it waits. */
export interface ElicitationRequest extends ElicitationAsk {
  call_id: string;
  step: number;
  /** The turn's requestInputTimeoutSeconds: it waits like a question. */
  timeout_s: number;
}
