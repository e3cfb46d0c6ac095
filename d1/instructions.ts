// A user's custom instructions and memory switch in D1 (docs/protocol.md "Projects, instructions and
// memory"). The settings route writes them; a turn reads them with its settings (user-settings.ts).
import { eq } from "drizzle-orm";
import type { Instructions, InstructionsPatch } from "../protocol/projects";
import { database } from "./client";
import { userInstructions } from "./schema";

/** What a user who never saved any has: no instructions, memory on. */
export const NO_INSTRUCTIONS: Instructions = { about: "", style: "", memory: true };

export const instructionsQuery = (d1: D1Database, userId: string) =>
  database(d1)
    .select({ about: userInstructions.about, style: userInstructions.style, memory: userInstructions.memory })
    .from(userInstructions)
    .where(eq(userInstructions.userId, userId))
    .limit(1);

export const instructionsOf = (row: Instructions | undefined): Instructions => row ?? NO_INSTRUCTIONS;

export async function loadInstructions(d1: D1Database, userId: string): Promise<Instructions> {
  return instructionsOf((await instructionsQuery(d1, userId))[0]);
}

/** Saves a patch over what is saved; surrounding blank lines are not instructions. */
export async function saveInstructions(
  d1: D1Database,
  userId: string,
  patch: InstructionsPatch,
): Promise<Instructions> {
  const saved = await loadInstructions(d1, userId);
  const next: Instructions = {
    about: patch.about === undefined ? saved.about : patch.about.trim(),
    style: patch.style === undefined ? saved.style : patch.style.trim(),
    memory: patch.memory ?? saved.memory,
  };
  const values = { ...next, updatedAt: new Date().toISOString() };
  await database(d1)
    .insert(userInstructions)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userInstructions.userId, set: values });
  return next;
}
