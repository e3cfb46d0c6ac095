import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof database>;
export const database = (d1: D1Database) => drizzle(d1, { schema });
export const nowIso = () => new Date().toISOString();
