// Picks the component for a persisted message by its role; a compaction, though a system message, is
// not something the system told the agent but a mark in the transcript, so it gets its own divider.
import type { Message as MessageShape, Prices } from "../../../../protocol";
import type { SubagentRun } from "../../lib/conversation-state";
import type { NoticeFold } from "../../lib/fold-notices";
import { AgentMessage } from "../agent-message";
import { CompactionDivider } from "../compaction-divider";
import { SystemMessage } from "../system-message";
import { ToolCard } from "../tool-card";
import { UserMessage } from "../user-message";

export function Message({
  message,
  subagents,
  prices,
  compact,
  fold,
}: {
  message: MessageShape;
  /** Subagent runs seen live, by delegate call_id, shown under their (now persisted) cards. */
  subagents?: ReadonlyMap<string, SubagentRun>;
  /** The operator's prices, for the cost on a final answer's token meter. */
  prices?: Prices;
  /** Inside a turn group: tool cards start as one line, step texts carry no action row. */
  compact?: boolean;
  /** The notices a System card stands for besides its own (lib/fold-notices.ts). */
  fold?: NoticeFold;
}) {
  switch (message.role) {
    case "user":
      return <UserMessage message={message} />;
    case "agent":
      return <AgentMessage message={message} prices={prices} compact={compact} />;
    case "tool":
      return <ToolCard call={message} seq={message.seq} subagent={subagents?.get(message.call_id)} compact={compact} />;
    case "system":
      if (message.item.kind === "compaction") return <CompactionDivider message={message} item={message.item} />;
      return <SystemMessage message={message} compact={compact} fold={fold} />;
  }
}
