// The user's saved workflows in D1 (`/slug` runs one: its body is the prompt that enters the context),
// shared by the /api/workflows routes and the agent's reference resolver. The rules are in protocol/library.ts.

import type { EntryInput, LibraryEntry, LibraryEntrySummary } from "../../protocol/library";
import { deleteEntry, getEntry, listEntries, putEntry } from "./entry-store";

export type Workflow = LibraryEntry;

/** Sorted by slug. */
export const listWorkflows = (d1: D1Database, userId: string): Promise<LibraryEntrySummary[]> =>
  listEntries(d1, "workflows", userId);

/** Undefined when the user has no workflow with this slug. */
export const getWorkflow = (d1: D1Database, userId: string, slug: string): Promise<Workflow | undefined> =>
  getEntry(d1, "workflows", userId, slug);

/** Creates or replaces the workflow; the caller has validated slug and input (SlugSchema, EntryInputSchema). */
export const putWorkflow = (d1: D1Database, userId: string, slug: string, input: EntryInput): Promise<Workflow> =>
  putEntry(d1, "workflows", userId, slug, input);

/** False when there was no such workflow. */
export const deleteWorkflow = (d1: D1Database, userId: string, slug: string): Promise<boolean> =>
  deleteEntry(d1, "workflows", userId, slug);
