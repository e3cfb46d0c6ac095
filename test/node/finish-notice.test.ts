// protocol/push.ts: what a notification of a finished turn says (the Worker's push and the tab's own
// alike), and the subscription a browser hands the server.
import { describe, expect, it } from "vitest";
import { answerText, finishNotice, noticeText, noticeWorthy, PushSubscriptionInputSchema } from "../../protocol/push";

const turn = {
  conversation_id: "c-1",
  reason: "completed",
  title: "Mum's birthday gift",
  answer: "**Buy** the `red` scarf.",
};

describe("finish notices", () => {
  it("say nothing the user or the model wrote unless the device chose it", () => {
    const plain = finishNotice(turn, false);
    expect(plain).toEqual({
      type: "turn_ended",
      conversation_id: "c-1",
      url: "/c/c-1",
      title: "Oracle",
      body: "Your answer is ready.",
      tag: "turn-c-1",
    });
    expect(finishNotice({ ...turn, reason: "timeout" }, false).body).toBe(
      "A turn ended without a full answer. Open it to see why.",
    );
    const chosen = finishNotice(turn, true);
    expect(chosen.title).toBe("Mum's birthday gift");
    expect(chosen.body).toBe("Buy the red scarf.");
    // Nothing to show: the plain words, under the app's name.
    expect(finishNotice({ ...turn, title: " ", answer: "" }, true)).toMatchObject({
      title: "Oracle",
      body: "Your answer is ready.",
    });
  });

  it("give the answer as one short line, without the product's note", () => {
    expect(answerText({ content: "Done.\n\n— Stopped: the time limit.", note: "Stopped: the time limit." })).toBe(
      "Done.",
    );
    expect(answerText({ content: "Stopped: the time limit.", note: "Stopped: the time limit." })).toBe("");
    expect(noticeText("# Plan\n\n- [step one](https://x.example)\n```js\nconst x = 1;\n```\n> done")).toBe(
      "Plan - step one done",
    );
    const long = noticeText("word ".repeat(100));
    expect(long.length).toBeLessThanOrEqual(180);
    expect(long.endsWith("…")).toBe(true);
  });

  it("are not sent for a turn somebody stopped", () => {
    expect(noticeWorthy("user_cancelled")).toBe(false);
    expect(noticeWorthy(undefined)).toBe(false);
    expect(noticeWorthy("completed")).toBe(true);
    expect(noticeWorthy("max_iterations")).toBe(true);
  });

  it("take a subscription as a browser writes it, and refuse keys of the wrong size", () => {
    const keys = { p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) };
    const parsed = PushSubscriptionInputSchema.parse({ endpoint: "https://push.example/x", keys });
    expect(parsed.show_content).toBe(false);
    expect(
      PushSubscriptionInputSchema.safeParse({ endpoint: "https://p.example", keys: { ...keys, auth: "A".repeat(21) } })
        .success,
    ).toBe(false);
    expect(
      PushSubscriptionInputSchema.safeParse({
        endpoint: "https://p.example",
        keys: { ...keys, p256dh: `A${"A".repeat(86)}` },
      }).success,
    ).toBe(false);
    expect(PushSubscriptionInputSchema.safeParse({ endpoint: "https://p.example", keys, extra: 1 }).success).toBe(
      false,
    );
  });
});
