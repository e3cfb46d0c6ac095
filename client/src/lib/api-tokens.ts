// The user's API tokens over docs/protocol.md "Identity" (protocol/auth.ts): list them (never the token
// itself), create one (its token is in that answer only) and delete one. For Settings → Account.
import { z } from "zod";
import { type CreatedToken, CreatedTokenSchema, type Token, TokenSchema } from "../../../protocol";
import { type ApiResult, requestEmpty, requestJson } from "./api";
import { explainShareError } from "./shares";
import { useList } from "./use-list";

export type { CreatedToken, Token };

const TokenListSchema = z.array(TokenSchema);

const listTokens = (): Promise<ApiResult<Token[]>> => requestJson("/api/tokens", TokenListSchema);
const explainLoad = (error: Parameters<typeof explainShareError>[0]) => explainShareError(error, "load your tokens");

export function createToken(name: string): Promise<ApiResult<CreatedToken>> {
  return requestJson("/api/tokens", CreatedTokenSchema, "POST", { name });
}

export function deleteToken(id: string): Promise<ApiResult<null>> {
  return requestEmpty(`/api/tokens/${encodeURIComponent(id)}`, "DELETE");
}

/** The list, kept in step with what this page creates and deletes. */
export function useApiTokens() {
  const { list, update } = useList(listTokens, explainLoad);
  const add = (created: CreatedToken) =>
    update((tokens) => [
      { id: created.id, name: created.name, created_at: new Date().toISOString(), last_used_at: null },
      ...tokens,
    ]);
  const remove = (id: string) => update((tokens) => tokens.filter((t) => t.id !== id));
  return { list, add, remove };
}
