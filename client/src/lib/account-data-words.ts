// What Settings → Account → Your data says while an export or import runs, and what an import did, in
// words (docs/protocol.md "Export and import"). Pure.
import type { ImportSummary } from "../../../protocol";
import type { ExportProgress, ImportKind, ImportProgress } from "./account-data";
import { plural } from "./plural";

/** How many renamed items a line names before "and N more". */
const NAMED = 5;

/** "2.4 MB": a download's size, as far as it has come. */
export function sizeWords(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString("en-US")} KB`;
  return `${(bytes / 1024 / 1024).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;
}

/** "Exporting… 12 of 40 conversations (3.1 MB so far)". */
export function exportProgressWords({ conversations, total, bytes }: ExportProgress): string {
  const count =
    total === null
      ? ""
      : ` ${Math.min(conversations, total).toLocaleString("en-US")} of ${plural(total, "conversation")}`;
  return `Exporting…${count} (${sizeWords(bytes)} so far)`;
}

export function importProgressWords(progress: ImportProgress): string {
  switch (progress.phase) {
    case "preparing":
      return "Reading the file…";
    case "sending":
      return "Sending and checking the file…";
    case "importing":
      return `Importing… ${progress.done.toLocaleString("en-US")} of ${plural(progress.total, "conversation")}`;
  }
}

/** What an import did, a sentence or two per line. */
export function importSummaryLines(summary: ImportSummary, kind: ImportKind): string[] {
  const added = [
    plural(summary.notes, "note"),
    plural(summary.tasks, "task"),
    summary.knowledge === 1 ? "1 knowledge entry" : `${summary.knowledge.toLocaleString("en-US")} knowledge entries`,
    plural(summary.workflows, "workflow"),
    plural(summary.schedules, "schedule"),
    plural(summary.projects, "project"),
    plural(summary.memories, "memory", "memories"),
  ].filter((words) => !words.startsWith("0 "));
  const conversations = `${plural(summary.conversations, "conversation")} (${plural(summary.messages, "message")})`;
  const lines = [
    kind === "chatgpt"
      ? `Imported ${conversations} from ChatGPT, each with every version of its answers.`
      : `Imported ${[conversations, ...added].join(", ")}.`,
  ];
  if (summary.schedules)
    lines.push("Imported schedules are paused, so nothing runs unexpectedly: resume them on the Schedules page.");
  if (summary.settings) lines.push("Your settings were applied.");
  if (summary.renamed_notes.length)
    lines.push(
      `${renamed(summary.renamed_notes, "note")} came in under a new path, as theirs was taken: ${pairs(summary.renamed_notes)}.`,
    );
  if (summary.renamed_entries.length)
    lines.push(
      `${renamed(summary.renamed_entries, "library entry")} came in under a new name: ${pairs(summary.renamed_entries)}.`,
    );
  for (const left of summary.left_out) lines.push(`Left out: ${left}.`);
  return lines;
}

const renamed = (items: readonly unknown[], one: string) =>
  items.length === 1
    ? `1 ${one}`
    : `${items.length.toLocaleString("en-US")} ${one === "note" ? "notes" : "library entries"}`;

function pairs(items: readonly { from: string; to: string }[]): string {
  const named = items.slice(0, NAMED).map(({ from, to }) => `${from} → ${to}`);
  return items.length > NAMED ? `${named.join(", ")} and ${items.length - NAMED} more` : named.join(", ");
}
