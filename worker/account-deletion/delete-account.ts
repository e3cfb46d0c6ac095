// Deleting an account (docs/protocol.md "Deleting an account"), in an order that leaves nothing half
// done and nothing able to write afterwards:
//   1. begin (d1/account-deletion.ts): the account is marked `deleting`, which starts no turn and signs
//      in for nothing but finishing the deletion (middleware/identity.ts); its other sessions, API
//      tokens, share links, schedules and push subscriptions are deleted; then every open socket of a
//      revoked credential is closed and every conversation's copy of the account dropped
//      (tellUserChanged "credentials");
//   2. every conversation object is erased, subagents' included (erase-conversations.ts): turns stopped,
//      sockets closed, storage and alarms deleted;
//   3. the MCP servers' OAuth grants are revoked at their providers (revoke-grants.ts), best effort;
//   4. its names leave the directory (the audit log and invites then name it "deleted user"), then every
//      row of it in its shard is deleted, the users row last (d1/directory.ts, d1/account-deletion.ts).
// Every step can run again. A deletion cut short (the Worker died) is finished by the same request sent
// again, or by the account's next page load or sign-in (identity runs finishDeletion), so the account is
// never left half deleted for good.
import { beginDeletion, deleteAccountRows } from "../../d1/account-deletion";
import { forgetAccount } from "../../d1/directory";
import { deleteUserObjects } from "../../d1/files";
import { directoryDb, shardDb } from "../../d1/shards";
import { tellUserChanged } from "../../durable-objects/user-changes";
import { eraseConversations } from "./erase-conversations";
import { revokeMcpGrants } from "./revoke-grants";

export interface AccountToDelete {
  id: string;
  username: string;
  /** Where its rows are (d1/shards.ts). */
  shard: number;
}

/**
 * Deletes the account for good; `keepSession` (the hash of the request's session) stays until the end,
 * so the request can be sent again if it is cut short. False when the account may not be deleted (it is
 * not active: waiting for approval, or disabled).
 */
export async function deleteAccount(env: Env, account: AccountToDelete, keepSession: string): Promise<boolean> {
  if (!(await beginDeletion(shardDb(env, account.shard), account.id, keepSession))) return false;
  await finishDeletion(env, account);
  return true;
}

/** Steps 2 to 4, for an account already marked; safe to run twice at once (each step is idempotent). */
export async function finishDeletion(env: Env, account: AccountToDelete): Promise<void> {
  const owner = { userId: account.id, shard: account.shard };
  await tellUserChanged(env, owner, "credentials");
  await eraseConversations(env, owner);
  await revokeMcpGrants(env, owner);
  // Every file's bytes and text; their rows go with the account's rows.
  await deleteUserObjects(env.FILES, account.id);
  // The directory's part before the shard's: were the deletion cut short between the two, the session it
  // keeps still finds the account in its shard (no directory needed) and finishes it.
  await forgetAccount(directoryDb(env), account);
  await deleteAccountRows(shardDb(env, account.shard), account);
}
