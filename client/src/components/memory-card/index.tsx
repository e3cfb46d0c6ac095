// The memory tool's card (docs/protocol.md "Projects, instructions and memory"), in place of the generic
// tool card: "Memory saved", "Memory updated" or "Memory forgotten" with the memory's text, and Undo,
// which deletes what was saved, puts back the text an update replaced, or saves again what was
// forgotten. Where it is kept (every conversation, or the project) and Settings to see them all.
// Loaded with the first memory card.
import { useState } from "preact/hooks";
import { type MemoryToolResult, MemoryToolResultSchema } from "../../../../protocol/projects";
import { addMemory, editMemory, forgetMemory } from "../../lib/projects";
import { Icon } from "../../ui/icon";
import { Link } from "../../ui/link";
import { CallDetails, CallMeta, callCardData, cardClass, lineClass, nameClass, ToolStatus } from "../call-card";
import type { ToolCardProps } from "../tool-card";
import tool from "../tool-card/style.module.css";
import style from "./style.module.css";

const TITLES: Record<MemoryToolResult["action"], string> = {
  save: "Memory saved",
  update: "Memory updated",
  forget: "Memory forgotten",
};

/** Puts things back as they were before the call. */
async function undo(result: MemoryToolResult) {
  const { memory } = result;
  if (result.action === "save") return forgetMemory(memory.id);
  if (result.action === "update") return editMemory(memory.id, result.previous ?? memory.text);
  return addMemory(memory.text, memory.project_id);
}

/** A share link's page (/s/<id>) shows the card to a visitor: nothing there is theirs to undo. */
const onSharePage = () => location.pathname.startsWith("/s/");

export function MemoryToolCard({ call, seq, compact }: ToolCardProps) {
  const parsed = MemoryToolResultSchema.safeParse(call.result);
  const result = call.status === "success" && parsed.success ? parsed.data : undefined;
  const [state, setState] = useState<"idle" | "undoing" | "undone" | string>("idle");
  const run = async () => {
    if (!result) return;
    setState("undoing");
    const done = await undo(result);
    setState(done.ok ? "undone" : `Could not undo: ${done.error.message}`);
  };
  const title = result ? TITLES[result.action] : call.status === "running" ? "Remembering…" : "Memory not changed";
  return (
    <details class={cardClass(call.status)} open={!compact} {...callCardData(call, seq)}>
      <summary class={lineClass(tool.summary)}>
        <span class={tool.icon}>
          <Icon name="book" />
        </span>
        <span class={nameClass}>{title}</span>
        <ToolStatus call={call} />
        <CallMeta call={call} />
      </summary>
      <div class={tool.body} data-testid="memory-card" data-action={result?.action ?? ""}>
        {result && <p class={style.said}>{result.memory.text}</p>}
        {result && !onSharePage() && (
          <div class={style.row}>
            <span>{result.memory.project_id ? "For this project" : "For all your conversations"}</span>
            <Link href="/settings/personalization">Manage memories</Link>
            {state === "undone" ? (
              <span class={style.undone} data-testid="memory-undone">
                Undone
              </span>
            ) : (
              <button type="button" disabled={state === "undoing"} onClick={() => void run()} data-testid="memory-undo">
                Undo
              </button>
            )}
            {state !== "idle" && state !== "undoing" && state !== "undone" && <span role="alert">{state}</span>}
          </div>
        )}
        <CallDetails call={call} />
      </div>
    </details>
  );
}
