// The notes tools (docs/architecture.md "The agent"): the model searches, reads, writes and lists the user's
// vault. The SQL and the path rules live in d1/notes.ts, shared with the /api/notes routes.
import { z } from "zod";
import {
  listNotes,
  NoteContentSchema,
  NotePathSchema,
  NotePrefixSchema,
  readNote,
  searchNotes,
  writeNote,
} from "../../d1/notes";
import { ALREADY_DONE } from "../../d1/tool-effects";
import { type AgentTool, defineTool, effectKey, ToolError } from "./tool";

export const vaultSearch = defineTool({
  name: "vault_search",
  readOnly: true,
  description:
    "Full-text search over the user's notes. Returns the best-matching note paths with a short snippet " +
    "(matches marked «like this»). Use vault_read to see a whole note.",
  args: z.object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .describe('Words to look for, like "budget meeting". A word ending in * matches by prefix.'),
    limit: z.number().int().min(1).max(20).default(5).describe("How many results at most (1-20, default 5)"),
  }),
  async execute({ query, limit }, ctx) {
    return { results: await searchNotes(ctx.db, ctx.userId, query, limit) };
  },
});

export const vaultRead = defineTool({
  name: "vault_read",
  readOnly: true,
  description: "Reads one note of the user's vault in full.",
  args: z.object({ path: NotePathSchema }),
  async execute({ path }, ctx) {
    const note = await readNote(ctx.db, ctx.userId, path);
    if (!note) throw new ToolError(`No note at ${path}`);
    return { path: note.path, content: note.content };
  },
});

export const vaultWrite = defineTool({
  name: "vault_write",
  description: "Creates a note, or replaces the whole content of an existing one (read it first to keep what it held).",
  args: z.object({ path: NotePathSchema, content: NoteContentSchema }),
  idempotent: true,
  async execute({ path, content }, ctx) {
    const { note, created, repeated } = await writeNote(ctx.db, ctx.userId, path, content, effectKey(ctx));
    const result = { path: note.path, bytes: note.bytes, created };
    return repeated ? { ...result, already_done: ALREADY_DONE } : result;
  },
});

export const vaultList = defineTool({
  name: "vault_list",
  readOnly: true,
  description: "Lists the user's notes by path (at most 200), optionally only those under a prefix.",
  args: z.object({ prefix: NotePrefixSchema.optional() }),
  async execute({ prefix }, ctx) {
    return { notes: await listNotes(ctx.db, ctx.userId, prefix) };
  },
});

export const vaultTools: AgentTool[] = [vaultSearch, vaultRead, vaultWrite, vaultList];
