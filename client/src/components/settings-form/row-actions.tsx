// A settings row's actions, shared by an MCP server (Settings → Tools) and a model provider (Settings →
// Models): Test, the button that opens the secret's form (Replace secret, Replace key), Delete with its
// confirm step, and the row's error line. One panel is open at a time; when the confirm is cancelled the
// focus goes back to Delete.
import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import { pageStyle as page } from "../page-frame";
import { DeleteConfirm } from "./delete-confirm";
import style from "./style.module.css";

type Props = {
  /** data-testid prefix: `<prefix>-test`, `<prefix>-delete`, `<prefix>-row-error`, … */
  testid: string;
  name: string;
  testing: boolean;
  /** "Test connection", "Test". */
  testLabel: string;
  onTest: () => void;
  /** The secret's button: its words and its data-testid (after the prefix). */
  secret: { label: string; testid: string };
  /** The secret's form, given a way to close itself. */
  secretForm: (close: () => void) => ComponentChildren;
  error?: string;
  /** What deleting it costs (DeleteConfirm's words). */
  consequence?: string;
  onDelete: () => Promise<boolean>;
};

export function RowActions(props: Props) {
  const { testid, testing } = props;
  const [panel, setPanel] = useState<"none" | "secret" | "delete">("none");
  const deleteButton = useRef<HTMLButtonElement>(null);
  const close = () => setPanel("none");
  const cancelDelete = () => {
    close();
    setTimeout(() => deleteButton.current?.focus());
  };
  return (
    <>
      <div class={style.actions}>
        <button
          type="button"
          onClick={props.onTest}
          disabled={testing}
          aria-busy={testing}
          data-testid={`${testid}-test`}
        >
          {testing ? "Testing…" : props.testLabel}
        </button>
        <button
          type="button"
          aria-expanded={panel === "secret"}
          onClick={() => setPanel(panel === "secret" ? "none" : "secret")}
          data-testid={`${testid}-${props.secret.testid}`}
        >
          {props.secret.label}
        </button>
        <button
          type="button"
          ref={deleteButton}
          class={page.danger}
          onClick={() => setPanel("delete")}
          disabled={panel === "delete"}
          data-testid={`${testid}-delete`}
        >
          Delete
        </button>
      </div>
      {props.error && (
        <p class={style.fieldError} role="alert" data-testid={`${testid}-row-error`}>
          {props.error}
        </p>
      )}
      {panel === "delete" && (
        <DeleteConfirm
          name={props.name}
          consequence={props.consequence}
          testid={testid}
          onCancel={cancelDelete}
          onDelete={props.onDelete}
        />
      )}
      {panel === "secret" && props.secretForm(close)}
    </>
  );
}
