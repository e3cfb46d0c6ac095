// A 300-page PDF read page by page with file_read in a small window (issue 45): the document is never
// pasted into the request, each read fits one message of the window, compaction keeps the conversation
// under it, and the agent reaches the last page. Real D1, R2, the object, and the fake model.
import { describe, expect, it } from "vitest";
import type { FileObject } from "../../protocol";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import { makePdf } from "../support/pdf-fixture";
import { api } from "./helpers";
import { chat, history, llmUrl, scenario } from "./turn-helpers";

const WINDOW = 16_000;
const PAGES = 300;
const PER_CALL = 25;
const LINES = 6;

describe("a 300-page PDF", () => {
  it("is read by pages through file_read without any request passing the window", async () => {
    const reads = Array.from({ length: PAGES / PER_CALL }, (_, i) => ({
      tool_calls: [
        { name: "file_read", arguments: { file: "book.pdf", pages: `${i * PER_CALL + 1}-${(i + 1) * PER_CALL}` } },
      ],
    }));
    const steps = [...reads, { text: "Read all 300 pages." }];
    const s = await scenario(steps, { maxIterations: 50, tokenBudget: 200_000 });
    // The summary carries the script's marker on, so the fake goes on answering this script after it.
    await scriptModel(llmUrl, s.key, steps, { text: `Summary: reading the book. ${marker(s.key)}` });
    const created = await api("/api/providers", {
      method: "POST",
      json: { name: "Small", base_url: `${llmUrl}/v1`, style: "chat", models: [{ id: "m", context_window: WINDOW }] },
      headers: s.session.headers,
    });
    const { id } = (await created.json()) as { id: string };
    await api("/api/models/default", {
      method: "PUT",
      json: { model: { provider_id: id, model: "m" } },
      headers: s.session.headers,
    });

    const pages = Array.from({ length: PAGES }, (_, p) =>
      Array.from({ length: LINES }, (_, l) => `Page ${p + 1}, line ${l + 1}: a sentence of the book.`),
    );
    const res = await api("/api/files?name=book.pdf", {
      method: "POST",
      body: await makePdf(pages),
      headers: s.session.headers,
    });
    const file = (await res.json()) as FileObject;
    expect(file).toMatchObject({ kind: "pdf", pages: PAGES });

    const { done } = await chat(s, "Read the whole book.", { attachments: [file.id], agent_max_steps: 50 });
    expect(done).toMatchObject({ termination_reason: "completed" });

    const messages = await history(s);
    const outline = messages.find((m) => m.role === "system" && m.source === "Files");
    expect(outline?.role === "system" && outline.item).toMatchObject({ inline: false });
    const results = messages.flatMap((m) => (m.role === "tool" && m.tool === "file_read" ? [m] : []));
    expect(results).toHaveLength(PAGES / PER_CALL);
    expect(results.every((r) => r.status === "success")).toBe(true);
    expect(JSON.stringify(results.at(-1)?.result)).toContain("Page 300, line 6");

    const requests = await modelRequests(llmUrl, s.key);
    expect(requests.length).toBeGreaterThan(PAGES / PER_CALL);
    // The fake counts a request's tokens as its messages' characters / 4: none reached the window.
    const largest = Math.max(...requests.map((r) => r.usage?.prompt_tokens ?? 0));
    expect(largest).toBeGreaterThan(WINDOW / 4);
    expect(largest).toBeLessThan(WINDOW);
    // The book went out a part at a time, never whole: no request held both its first and its last page.
    // The first request had the outline, not the book; the book (about 30,000 tokens) never fit whole, so a
    // compaction made room as the reads went on.
    expect(JSON.stringify(requests[0]?.body.messages)).not.toContain("Page 2, line 1:");
    for (const r of requests) {
      const text = JSON.stringify(r.body.messages);
      expect(text.includes("Page 1, line 1:") && text.includes("Page 300, line 6")).toBe(false);
    }
    expect(messages.some((m) => m.role === "system" && m.item.kind === "compaction")).toBe(true);
  }, 120_000);
});
