// The user's knowledge entries in D1 (`#slug` attaches one to a message), shared by the
// /api/knowledge routes and the agent's reference resolver. The rules are in protocol/library.ts.

import type { EntryInput, LibraryEntry, LibraryEntrySummary } from "../../protocol/library";
import { deleteEntry, getEntry, listEntries, putEntry } from "./entry-store";

export type KnowledgeEntry = LibraryEntry;

/** Sorted by slug. */
export const listKnowledge = (d1: D1Database, userId: string): Promise<LibraryEntrySummary[]> =>
  listEntries(d1, "knowledge", userId);

/** Undefined when the user has no entry with this slug. */
export const getKnowledge = (d1: D1Database, userId: string, slug: string): Promise<KnowledgeEntry | undefined> =>
  getEntry(d1, "knowledge", userId, slug);

/** Creates or replaces the entry; the caller has validated slug and input (SlugSchema, EntryInputSchema). */
export const putKnowledge = (
  d1: D1Database,
  userId: string,
  slug: string,
  input: EntryInput,
): Promise<KnowledgeEntry> => putEntry(d1, "knowledge", userId, slug, input);

/** False when there was no such entry. */
export const deleteKnowledge = (d1: D1Database, userId: string, slug: string): Promise<boolean> =>
  deleteEntry(d1, "knowledge", userId, slug);
