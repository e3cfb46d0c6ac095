// Web push subscriptions (docs/protocol.md "Finish notifications"): the key a browser subscribes with,
// and the user's browsers that get a notification when a turn ends with no tab of theirs open on it
// (sent by the conversation's object: durable-objects/conversation/turn/finish-push.ts). Own only. Writes
// take a signed-in session (sessionOnlyWrites in worker/app.ts): a subscription sends the user's answers
// where its endpoint points, which a leaked API token must not choose; and it lasts only as long as
// the session it was made under. The endpoint goes through the outbound policy like any URL the Worker
// fetches.
import { Hono } from "hono";
import { vapidKeys } from "../../core/vapid";
import { claimPushEndpoint, pushEndpointOwner } from "../../d1/directory";
import {
  deletePushSubscription,
  forgetPushEndpoint,
  listPushSubscriptions,
  savePushSubscription,
  setPushShowContent,
} from "../../d1/push-subscriptions";
import { shardDb } from "../../d1/shards";
import { outboundPolicy, refusedUrl } from "../../outbound/policy";
import { MAX_PUSH_SUBSCRIPTIONS, PushSubscriptionInputSchema, PushSubscriptionPatchSchema } from "../../protocol/push";
import { ApiError, invalid, notFound } from "../errors";
import { type AppEnv, currentUser, directory, ownerOf } from "../middleware/identity";
import { readJson } from "../validate";

export const pushRoutes = new Hono<AppEnv>();

const noSuchSubscription = () => notFound("No such push subscription");

pushRoutes.get("/", async (c) => {
  const keys = await vapidKeys(c.env);
  return c.json({
    public_key: keys?.publicKey ?? null,
    subscriptions: await listPushSubscriptions(c.var.shard, currentUser(c).id),
  });
});

pushRoutes.post("/subscriptions", async (c) => {
  const input = await readJson(c, PushSubscriptionInputSchema);
  if (!(await vapidKeys(c.env))) throw new ApiError(409, "conflict", "Push is not set up on this server");
  const refused = refusedUrl(input.endpoint, outboundPolicy(c.env));
  if (refused) throw invalid(`endpoint: ${refused}`, { endpoint: refused });
  const session = c.var.credential?.hash ?? "";
  const owner = ownerOf(c);
  // One browser notifies one account: saved by another user (in another shard), the endpoint leaves theirs
  // with its id (the directory says whose it was), as it does within a shard (savePushSubscription).
  const before = await pushEndpointOwner(directory(c), input.endpoint);
  const elsewhere = before && before.shard !== owner.shard ? before : undefined;
  const saved = await savePushSubscription(c.var.shard, owner.userId, session, input, elsewhere?.subscriptionId);
  if (!saved) throw new ApiError(409, "conflict", `At most ${MAX_PUSH_SUBSCRIPTIONS} devices can get notifications`);
  const moved =
    elsewhere && (await forgetPushEndpoint(shardDb(c.env, elsewhere.shard), elsewhere.userId, input.endpoint));
  await claimPushEndpoint(directory(c), input.endpoint, owner, saved.subscription.id);
  return c.json(saved.subscription, saved.created && !moved ? 201 : 200);
});

pushRoutes.patch("/subscriptions/:id", async (c) => {
  const { show_content } = await readJson(c, PushSubscriptionPatchSchema);
  const saved = await setPushShowContent(c.var.shard, currentUser(c).id, c.req.param("id"), show_content);
  if (!saved) throw noSuchSubscription();
  return c.json(saved);
});

pushRoutes.delete("/subscriptions/:id", async (c) => {
  if (!(await deletePushSubscription(c.var.shard, currentUser(c).id, c.req.param("id")))) throw noSuchSubscription();
  return c.body(null, 204);
});
