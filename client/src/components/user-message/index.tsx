// The user's own message: a right-aligned bubble.
import type { UserMessage as Message } from "../../../../protocol";
import { PlainText } from "../plain-text";
import style from "./style.module.css";

export function UserMessage({ message }: { message: Message }) {
  return (
    <article class={style.row} data-role="user" data-seq={message.seq}>
      <div class={style.bubble} title={new Date(message.created_at).toLocaleString()}>
        <PlainText text={message.content} />
      </div>
    </article>
  );
}
