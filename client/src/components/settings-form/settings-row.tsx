// A settings row's frame, shared by a model provider (Settings → Models) and an MCP server (Settings →
// Tools): its name as the row's heading (with room beside it for a switch), the address it reaches, how
// it authenticates (never the secret), its last test as a status line, and below them what is the row's
// own (actions, tools, models).
import type { ComponentChildren } from "preact";
import style from "./style.module.css";

/** A row's last test in words, and its state for the status line's colour. */
export type RowStatus = { state: "testing" | "untested" | "ok" | "error"; text: string };

type Props = {
  /** Names the heading's id, `<idPrefix>-name-<id>`. */
  id: string;
  idPrefix: string;
  name: string;
  url: string;
  auth: string;
  status: RowStatus;
  /** data-testid of the row and of its address, auth and status lines. */
  testids: { row: string; url: string; auth: string; status: string };
  /** More data-* attributes on the row (data-enabled, …). */
  data?: Record<`data-${string}`, string>;
  /** Beside the name: a switch. */
  beside?: ComponentChildren;
  /** Between the auth line and the status: a connect panel. */
  beforeStatus?: ComponentChildren;
  children: ComponentChildren;
};

export function SettingsRow(props: Props) {
  const { testids, status } = props;
  const nameId = `${props.idPrefix}-name-${props.id}`;
  return (
    <li class={style.server} aria-labelledby={nameId} data-testid={testids.row} data-name={props.name} {...props.data}>
      <div class={style.head}>
        <h3 id={nameId} class={style.name}>
          {props.name}
        </h3>
        {props.beside}
      </div>
      <p class={style.url} data-testid={testids.url}>
        {props.url}
      </p>
      <p class={style.auth} data-testid={testids.auth}>
        {props.auth}
      </p>
      {props.beforeStatus}
      <p
        class={`${style.status} ${style[status.state]}`}
        role="status"
        data-testid={testids.status}
        data-state={status.state}
      >
        {status.text}
      </p>
      {props.children}
    </li>
  );
}
