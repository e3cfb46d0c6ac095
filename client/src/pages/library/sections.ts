// The Library's two kinds in words (a knowledge entry, a workflow), the status line a section shows,
// and how a zod issue reads as a sentence in the editor.
import type { EntryInput } from "../../../../protocol/library";
import type { LibraryKind } from "../../lib/use-library";

export const SECTIONS: Record<
  LibraryKind,
  { title: string; sigil: string; noun: string; intro: string; bodyLabel: string; placeholder: string }
> = {
  knowledge: {
    title: "Knowledge",
    sigil: "#",
    noun: "knowledge entry",
    intro:
      "Text the agent reads when a message mentions #slug: facts about you or a project, a style guide, a glossary.",
    bodyLabel: "Text",
    placeholder: "What the agent should know when this entry is attached…",
  },
  workflows: {
    title: "Workflows",
    sigil: "/",
    noun: "workflow",
    intro: "Saved prompts: start a message with /slug (or put it after a space) and its prompt enters the context.",
    bodyLabel: "Prompt",
    placeholder: "The instructions the agent follows when this workflow runs…",
  },
};

export type Editing = { kind: LibraryKind; slug: string | null };
export type Status = { kind: LibraryKind; text: string; error?: boolean; undo?: { slug: string; input: EntryInput } };

/** A zod message reads as a sentence. */
const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

export function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : sentence(result.error?.issues[0]?.message ?? "Invalid");
}
