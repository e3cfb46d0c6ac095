// A server's name as it is saved: it prefixes its tools' names (`<name>__<tool>`), so the protocol takes
// a–z, 0–9 and - only (protocol/mcp.ts); what the user types ("My Docs") is turned into that ("my-docs")
// and shown before it is saved, rather than refused.
import { McpServerNameSchema } from "../../../../../protocol";

/** "My Docs" → "my-docs", "Café Tools!" → "cafe-tools": lower case, accents dropped, other runs one "-", at most 24. */
export function serverSlug(typed: string): string {
  return typed
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, 24)
    .replace(/-+$/, "");
}

/** The name to send: the slug when it is a valid name, else what was typed (the schema then says what is wrong). */
export function nameToSave(typed: string): string {
  const slug = serverSlug(typed);
  return McpServerNameSchema.safeParse(slug).success ? slug : typed.trim();
}
