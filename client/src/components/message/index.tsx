// Picks the component for a persisted message by its role.
import type { Message as MessageShape } from "../../../../protocol";
import { AgentMessage } from "../agent-message";
import { SystemMessage } from "../system-message";
import { ToolCard } from "../tool-card";
import { UserMessage } from "../user-message";

export function Message({ message }: { message: MessageShape }) {
  switch (message.role) {
    case "user":
      return <UserMessage message={message} />;
    case "agent":
      return <AgentMessage message={message} />;
    case "tool":
      return <ToolCard call={message} seq={message.seq} />;
    case "system":
      return <SystemMessage message={message} />;
  }
}
