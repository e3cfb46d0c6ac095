// A tool as a person reads its name: "Search notes" for `vault_search`, an MCP tool `github__search_issues`
// as "Search issues" on its server "github". The model keeps the names it calls; what a client shows by
// default (and what the demo model says) is this, the name itself one click away.
import { splitToolName } from "./mcp";

/** The built-in tools (agent/tools/), each in a few words. */
const BUILT_IN_LABELS: Record<string, string> = {
  vault_search: "Search notes",
  vault_read: "Read a note",
  vault_list: "List notes",
  vault_write: "Write a note",
  task_list: "List tasks",
  task_create: "Add a task",
  task_update: "Update a task",
  request_input: "Question for you",
  delegate: "Subagent",
  schedule: "Schedule",
  file_read: "Read a file",
  file_search: "Search a file",
  file_to_note: "Save a file as a note",
  note_to_file: "Attach a note as a file",
  web_search: "Search the web",
  web_fetch: "Read a web page",
};

/** `search_issues`, `searchIssues`, `search-issues` → "Search issues". */
export function humanizeName(name: string): string {
  const words = name
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : name;
}

/** A tool's label and, for an MCP tool, the user's server it runs on. */
export function toolLabel(name: string): { label: string; server?: string } {
  const known = BUILT_IN_LABELS[name];
  if (known) return { label: known };
  const mcp = splitToolName(name);
  return mcp ? { label: humanizeName(mcp.tool), server: mcp.server } : { label: humanizeName(name) };
}

/** The label in running text: "Search notes", "Search issues (github)". */
export function toolWords(name: string): string {
  const { label, server } = toolLabel(name);
  return server ? `${label} (${server})` : label;
}
