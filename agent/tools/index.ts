// The tools every conversation's agent gets.
import { fileTools } from "./files";
import { memoryTool } from "./memory";
import { requestInputTool } from "./request-input";
import { scheduleTool } from "./schedule";
import { taskTools } from "./tasks";
import type { AgentTool } from "./tool";
import { vaultTools } from "./vault";
import { webTools } from "./web";

export const BUILTIN_TOOLS: readonly AgentTool[] = [
  requestInputTool,
  ...vaultTools,
  ...taskTools,
  scheduleTool,
  ...fileTools,
  ...webTools,
  memoryTool,
];
