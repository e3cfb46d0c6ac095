// What the object keeps of its conversation: the sockets, which exist from the constructor (the
// runtime hands them back after hibernation), and the conversation, opened on the first event
// (open-conversation.ts) and kept until it is erased. Everything else reaches the conversation
// through `open`, never a part that may not exist yet.
import { DurableObject } from "cloudflare:workers";
import { ownerShard } from "../../d1/shards";
import type { Conversation } from "./conversation";
import { openConversation, type Sockets } from "./open-conversation";
import { SocketGuard } from "./sockets/socket-guard";
import { SocketHub, type SocketMeta } from "./sockets/socket-hub";
import { UserCache } from "./user-cache";

export abstract class OpenedConversation extends DurableObject<Env> {
  protected readonly sockets: Sockets;
  private conversation: Conversation | undefined;
  private owner: SocketMeta | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const hub = new SocketHub(ctx);
    // The owner's shard is known once the conversation is opened (its meta), before any socket is read.
    const shard = () => ownerShard(env, this.owner ?? {});
    const user = new UserCache(shard);
    const guard = new SocketGuard(hub, shard, user, (revoked) =>
      this.conversation?.turns.lifecycle.stopIfStartedBy(revoked),
    );
    this.sockets = { hub, guard, user };
    // Answered by the runtime itself, without waking a hibernated object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
  }

  /** The conversation, opened the first time this instance learns who it is. */
  protected async open(meta: SocketMeta): Promise<Conversation> {
    this.owner ??= meta;
    // No other event may run while a fresh instance loads its log and recovers a dead turn.
    if (!this.conversation) {
      await this.ctx.blockConcurrencyWhile(async () => {
        this.conversation ??= await openConversation(this.ctx, this.env, this.sockets, meta);
      });
    }
    if (!this.conversation) throw new Error("conversation not opened");
    return this.conversation;
  }

  /** The conversation was erased: the next event opens an empty one. */
  protected forget(): void {
    this.conversation = undefined;
  }

  /** The conversation if this instance has opened it: for what must not open one (a subagent's Stop), and the workers tests. */
  protected get opened(): Conversation | undefined {
    return this.conversation;
  }
}
