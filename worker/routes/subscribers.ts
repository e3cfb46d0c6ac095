// Notification subscribers and the user's toggles (docs/protocol.md "Settings"; seed 000 US5). A change is
// read by the conversation objects when they deliver notifications, so it applies to the next event,
// in running conversations too.
import { Hono } from "hono";
import { findSubscriber, subscriberInfo, subscribers } from "../../agent/notifications/subscribers";
import { loadSubscriberToggles, saveToggle } from "../../d1/user-settings";
import { SubscriberToggleSchema } from "../../protocol";
import { ApiError, notFound } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readJson } from "../validate";

export const subscriberRoutes = new Hono<AppEnv>();

subscriberRoutes.get("/", async (c) => {
  const toggles = await loadSubscriberToggles(c.var.shard, currentUser(c).id);
  return c.json(subscribers.map((s) => subscriberInfo(s, toggles)));
});

subscriberRoutes.put("/:id", async (c) => {
  const subscriber = findSubscriber(c.req.param("id"));
  if (!subscriber) throw notFound("No such subscriber");
  const { enabled } = await readJson(c, SubscriberToggleSchema);
  if (subscriber.config.core && !enabled) {
    throw new ApiError(
      409,
      "conflict",
      `${subscriber.config.name} is a core subscriber: it stays on so the agent always learns about ${subscriber.config.events.join(", ")}.`,
    );
  }
  const userId = currentUser(c).id;
  await saveToggle(c.var.shard, userId, subscriber.config.id, enabled);
  return c.json(subscriberInfo(subscriber, await loadSubscriberToggles(c.var.shard, userId)));
});
