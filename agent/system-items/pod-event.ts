// Child-pod lifecycle events rendered as the one line the agent sees (seed 002 `render_pod_event`),
// shared by persistence and broadcast so both say the same thing.
import type { PodEvent, SystemItem } from "../../protocol";

export function renderPodEvent(event: PodEvent): string {
  switch (event.type) {
    case "turn_ended":
      return `pod \`${event.pod_name}\` finished a turn`;
    case "errored":
      return `pod \`${event.pod_name}\` errored: ${event.message}`;
    case "shut_down":
      return `pod \`${event.pod_name}\` shut down`;
    case "scope_sub_delegated":
      return `pod \`${event.parent_pod}\` sub-delegated scope to \`${event.sub_pod}\``;
  }
}

export function podEventItem(event: PodEvent): Extract<SystemItem, { kind: "pod_event" }> {
  return { kind: "pod_event", event, body: `[Notification]\n${renderPodEvent(event)}` };
}
