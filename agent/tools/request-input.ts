// request_input (seed 003): a virtual tool offered in every tree. The loop never "executes" it: it
// pauses the turn and asks the user, through the conversation object.
import { z } from "zod";
import { defineTool } from "./tool";

export const REQUEST_INPUT = "request_input";

export const requestInputTool = defineTool({
  name: REQUEST_INPUT,
  description:
    "Pause and ask the user one clarifying question when you cannot go on without their answer. The answer comes back as this tool's result.",
  args: z.object({ question: z.string().min(1).max(2000).describe("The question to show the user") }),
  execute: async () => {
    throw new Error("request_input is handled by the agent loop");
  },
});

export type InputOutcome = { type: "answer"; content: string } | { type: "timeout" } | { type: "aborted" };
