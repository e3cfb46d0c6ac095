// Picks the component for a persisted message by its role.
import type { Message as MessageShape } from "../../../../protocol";
import type { SubagentRun } from "../../lib/conversation-state";
import { AgentMessage } from "../agent-message";
import { SystemMessage } from "../system-message";
import { ToolCard } from "../tool-card";
import { UserMessage } from "../user-message";

export function Message({
  message,
  subagents,
}: {
  message: MessageShape;
  /** Subagent runs seen live, by delegate call_id, shown under their (now persisted) cards. */
  subagents?: ReadonlyMap<string, SubagentRun>;
}) {
  switch (message.role) {
    case "user":
      return <UserMessage message={message} />;
    case "agent":
      return <AgentMessage message={message} />;
    case "tool":
      return <ToolCard call={message} seq={message.seq} subagent={subagents?.get(message.call_id)} />;
    case "system":
      return <SystemMessage message={message} />;
  }
}
