// The vault over HTTP (for the UI and scripts): the same store and path rules as the agent's vault_*
// tools. A note path may hold slashes, so it is the rest of the URL after /notes/.
import { Hono } from "hono";
import { z } from "zod";
import {
  createNote,
  deleteNote,
  listNotes,
  NoteContentSchema,
  NotePathSchema,
  NotePrefixSchema,
  readNote,
  writeNote,
} from "../../d1/notes";
import { ApiError, notFound } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { parseWith, readJson, readQuery } from "../validate";

export const noteRoutes = new Hono<AppEnv>();

const ListQuerySchema = z.object({ prefix: NotePrefixSchema.optional() });
const WriteNoteSchema = z.object({ content: NoteContentSchema });
const PathParamSchema = z.object({ path: NotePathSchema });

/** Hono has already percent-decoded the parameter; a bad path is a 400 naming the `path` field. */
const notePath = (raw: string) => parseWith(PathParamSchema, { path: raw }).path;

noteRoutes.get("/", async (c) => {
  const { prefix } = readQuery(c, ListQuerySchema);
  return c.json({ notes: await listNotes(c.var.shard, currentUser(c).id, prefix) });
});

noteRoutes.get("/:path{.+}", async (c) => {
  const path = notePath(c.req.param("path"));
  const note = await readNote(c.var.shard, currentUser(c).id, path);
  if (!note) throw notFound(`No note at ${path}`);
  return c.json(note);
});

// `If-None-Match: *` (HTTP's create-only condition): a new note or 409, never an overwrite, so two
// tabs creating the same path cannot replace each other's text.
noteRoutes.put("/:path{.+}", async (c) => {
  const path = notePath(c.req.param("path"));
  const { content } = await readJson(c, WriteNoteSchema);
  if (c.req.header("If-None-Match")?.trim() === "*") {
    const created = await createNote(c.var.shard, currentUser(c).id, path, content);
    if (!created) throw new ApiError(409, "conflict", `A note already exists at ${path}`);
    return c.json(created, 201);
  }
  const { note } = await writeNote(c.var.shard, currentUser(c).id, path, content);
  return c.json(note);
});

noteRoutes.delete("/:path{.+}", async (c) => {
  const path = notePath(c.req.param("path"));
  if (!(await deleteNote(c.var.shard, currentUser(c).id, path))) throw notFound(`No note at ${path}`);
  return c.body(null, 204);
});
