// The agent's question (a request_input call) and the user's answer, read as a question and an answer
// in the thread: the agent's words on its side, the user's on theirs, in their place in the turn. Both
// come from the call's persisted tool message, so they are there again after a reload. A question that
// got no answer (it timed out, or the turn was stopped) says so under it.
import type { ToolMessage } from "../../../../protocol";
import { PlainText } from "../../ui/plain-text";
import side from "../agent-message/side.module.css";
import agent from "../agent-message/style.module.css";
import { Markdown } from "../markdown";
import user from "../user-message/style.module.css";
import style from "./style.module.css";

type Props = { message: ToolMessage; question: string; answer: string | null };

export function QuestionAnswer({ message, question, answer }: Props) {
  return (
    <div class={style.exchange} data-testid="question-answer" data-seq={message.seq} data-call-id={message.call_id}>
      <div class={side.wrap}>
        <article class={side.row} data-role="agent" data-kind="question">
          <div class={`${side.bubble} ${agent.bubble}`}>
            <Markdown text={question} />
            {answer === null && (
              <div class={agent.stopped} data-testid="question-unanswered">
                Not answered
              </div>
            )}
          </div>
        </article>
      </div>
      {answer !== null && (
        <div class={user.row}>
          <article class={user.message} data-role="user" data-kind="answer">
            <div class={user.bubble}>
              <PlainText text={answer} />
            </div>
          </article>
        </div>
      )}
    </div>
  );
}
