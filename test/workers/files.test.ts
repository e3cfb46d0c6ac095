// Files in the conversation (issue 45, docs/protocol.md "Files"): uploads decided by their bytes and kept
// in R2 per user, served so nothing runs, refused in words past the limits; a chat frame's files reach the
// model (an image part, a PDF's text with its pages); another user's file is 404 everywhere; a
// conversation's deletion takes its files. Real D1, R2 (miniflare's local bucket) and objects; the fake model.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { FileObject, Message, Share } from "../../protocol";
import { modelRequests } from "../support/fake-openai-client";
import { makePdf, TINY_PNG } from "../support/pdf-fixture";
import { api, eventually, type Session, signup } from "./helpers";
import { chat, history, llmUrl, type Scenario, scenario } from "./turn-helpers";

const upload = (session: Session, name: string, bytes: Uint8Array | string, headers: Record<string, string> = {}) =>
  api(`/api/files?name=${encodeURIComponent(name)}`, {
    method: "POST",
    body: typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes,
    headers: { ...session.headers, ...headers },
  });

async function uploaded(session: Session, name: string, bytes: Uint8Array | string): Promise<FileObject> {
  const res = await upload(session, name, bytes);
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<FileObject>;
}

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

async function sendWith(s: Scenario, content: string, ids: string[], extra: Record<string, unknown> = {}) {
  return chat(s, content, { attachments: ids, ...extra });
}

describe("uploads", () => {
  it("decides the type from the bytes and serves an image inline, everything sandboxed and unsniffed", async () => {
    const session = await signup();
    const png = await uploaded(session, "dot.png", TINY_PNG);
    expect(png).toMatchObject({ kind: "image", content_type: "image/png", width: 1, height: 1, conversation_id: null });
    const res = await api(png.url, { headers: session.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Content-Disposition")).toMatch(/^inline; filename="dot.png"/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Security-Policy")).toMatch(/^sandbox; default-src 'none'/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(TINY_PNG);
    const download = await api(`${png.url}?download=1`, { headers: session.headers });
    expect(download.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    await download.body?.cancel();
  });

  it("keeps HTML, SVG and a lying extension as plain text, downloaded, never rendered", async () => {
    const session = await signup();
    const page = "<html><body><script>document.title='pwned'</script></body></html>";
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    for (const [name, body] of [
      ["page.html", page],
      ["drawing.svg", svg],
      ["photo.png", page],
    ] as const) {
      const file = await uploaded(session, name, body);
      expect(file.kind, name).toBe("text");
      const res = await api(file.url, { headers: session.headers });
      expect(res.headers.get("Content-Type"), name).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("Content-Disposition"), name).toMatch(/^attachment;/);
      expect(res.headers.get("Content-Security-Policy"), name).toMatch(/sandbox/);
      expect(await res.text()).toBe(body);
    }
  });

  it("refuses what is not an image, a PDF or text, and what passes the limits, keeping nothing", async () => {
    const session = await signup();
    const binary = await upload(session, "notes.txt", Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 1, 2, 3]));
    expect(binary.status).toBe(415);
    expect(await errorOf(binary)).toMatchObject({
      code: "unsupported_file",
      message: expect.stringContaining("notes.txt"),
    });
    // The declared length alone refuses it: FILE_MAX_BYTES is 512 KiB in these tests.
    const big = await upload(session, "big.txt", "x".repeat(600 * 1024));
    expect(big.status).toBe(413);
    expect(await errorOf(big)).toMatchObject({
      code: "too_large",
      message: expect.stringMatching(/big\.txt is 600 KB; files can be at most 512 KB/),
    });
    const badName = await upload(session, "../etc/passwd", "x");
    expect(badName.status).toBe(400);
    const list = (await (await api("/api/files", { headers: session.headers })).json()) as {
      files: unknown[];
      used_bytes: number;
    };
    expect(list).toMatchObject({ files: [], used_bytes: 0, max_file_bytes: 512 * 1024, max_attachments: 10 });
  });

  it("holds the user's total under concurrent uploads", async () => {
    const session = await signup();
    const chunk = "y".repeat(400 * 1024);
    // 1,280 KiB in all: three of 400 KiB fit, a fourth does not, however the six race.
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(session, `part-${i}.txt`, chunk)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 413, 413, 413]);
    const refused = results.find((r) => r.status === 413);
    expect((await errorOf(refused as Response)).code).toBe("storage_full");
    const list = (await (await api("/api/files", { headers: session.headers })).json()) as { used_bytes: number };
    expect(list.used_bytes).toBe(3 * 400 * 1024);
    const objects = await env.FILES.list({ prefix: `files/${session.user.id}/` });
    // Each text file is its bytes and its text: nothing is left of the refused ones.
    expect(objects.objects.length).toBe(6);
  });

  it("refuses a cookie-signed upload from another origin, and an upload without a credential", async () => {
    const session = await signup();
    const forged = await upload(session, "a.txt", "x", { Origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    expect((await errorOf(forged)).code).toBe("forbidden_origin");
    const anonymous = await api("/api/files?name=a.txt", { method: "POST", body: "x" });
    expect(anonymous.status).toBe(401);
    const list = (await (await api("/api/files", { headers: session.headers })).json()) as { files: unknown[] };
    expect(list.files).toEqual([]);
  });

  it("reads a PDF's pages", async () => {
    const session = await signup();
    const pdf = await uploaded(session, "report.pdf", await makePdf([["Quarterly revenue grew 12%"], ["Costs fell"]]));
    expect(pdf).toMatchObject({ kind: "pdf", content_type: "application/pdf", pages: 2 });
  });

  it("answers another user's file 404 on every route, as a missing one", async () => {
    const [owner, other] = [await signup(), await signup()];
    const file = await uploaded(owner, "mine.txt", "private words");
    for (const [path, method] of [
      [`/api/files/${file.id}`, "GET"],
      [file.url, "GET"],
      [`/api/files/${file.id}`, "DELETE"],
    ] as const) {
      const res = await api(path, { method, headers: other.headers });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await errorOf(res)).toMatchObject({ code: "not_found" });
    }
    expect((await api(file.url, { headers: owner.headers })).status).toBe(200);
  });
});

describe("files in a message", () => {
  it("gives the model the image as an image part and the PDF's text with its pages", async () => {
    const s = await scenario([{ text: "I see a dot and a report." }]);
    const png = await uploaded(s.session, "dot.png", TINY_PNG);
    const pdf = await uploaded(
      s.session,
      "report.pdf",
      await makePdf([["Quarterly revenue grew 12%"], ["Costs fell 3%"]]),
    );
    const { done } = await sendWith(s, "What do these say?", [png.id, pdf.id]);
    expect(done).toMatchObject({ termination_reason: "completed" });
    const messages = await history(s);
    const user = messages.find((m) => m.role === "user");
    expect(user).toMatchObject({
      attachments: [
        { id: png.id, kind: "image" },
        { id: pdf.id, kind: "pdf", pages: 2 },
      ],
    });
    const files = messages.filter(
      (m): m is Extract<Message, { role: "system" }> => m.role === "system" && m.source === "Files",
    );
    expect(files).toHaveLength(1);
    expect(files[0]?.item).toMatchObject({ kind: "file_attachment", inline: true, file: { id: pdf.id } });
    expect(files[0]?.item.body).toMatch(/\[Page 1\]\nQuarterly revenue grew 12%\n\[Page 2\]\nCosts fell 3%/);
    const [request] = await modelRequests(llmUrl, s.key);
    const sent = JSON.stringify(request?.body.messages);
    expect(sent).toContain(`data:image/png;base64,${btoa(String.fromCharCode(...TINY_PNG))}`);
    expect(sent).toContain("Quarterly revenue grew 12%");
    // The file is the conversation's now.
    const meta = (await (await api(`/api/files/${pdf.id}`, { headers: s.session.headers })).json()) as FileObject;
    expect(meta.conversation_id).toBe(s.conversationId);
  });

  it("sends the same bytes for the files in every later request (prefix-stable)", async () => {
    const s = await scenario([{ text: "First." }, { text: "Second." }]);
    const png = await uploaded(s.session, "dot.png", TINY_PNG);
    const notes = await uploaded(s.session, "notes.md", "# Plan\n\nShip on Friday.");
    await sendWith(s, "Look.", [png.id, notes.id]);
    await chat(s, "And now?");
    const [first, second] = await modelRequests(llmUrl, s.key);
    const a = first?.body.messages as unknown[];
    const b = second?.body.messages as unknown[];
    // Everything the first request held (but its last, per-phase parts), the second begins with, byte for byte.
    const shared = a.slice(0, -1);
    expect(JSON.stringify(b.slice(0, shared.length))).toBe(JSON.stringify(shared));
  });

  it("refuses a file that is not the sender's, saving nothing", async () => {
    const s = await scenario([{ text: "never" }]);
    const stranger = await signup();
    const theirs = await uploaded(stranger, "theirs.txt", "secret");
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: "read this", attachments: [theirs.id] });
    const error = await s.socket.next("error", () => true, { from });
    expect(error).toMatchObject({ code: "invalid_frame", message: "attachments.0: no such file" });
    expect(await history(s)).toEqual([]);
  });

  it("outlines a long document and lets the agent read it by pages with file_read", async () => {
    const pages = Array.from({ length: 40 }, (_, p) =>
      Array.from(
        { length: 30 },
        (_, l) => `Page ${p + 1} line ${l + 1}: the quick brown fox jumps over the lazy dog again.`,
      ),
    );
    const s = await scenario([
      { tool_calls: [{ name: "file_read", arguments: { file: "long.pdf", pages: "37" } }] },
      { text: "Page 37 is about a fox." },
    ]);
    const pdf = await uploaded(s.session, "long.pdf", await makePdf(pages));
    await sendWith(s, "Summarise page 37.", [pdf.id]);
    const messages = await history(s);
    const item = messages.find((m) => m.role === "system" && m.source === "Files");
    expect(item?.role === "system" && item.item).toMatchObject({ inline: false });
    expect(item?.role === "system" && item.item.body).toMatch(/file_read/);
    expect(item?.role === "system" && item.item.body).not.toContain("Page 2 line 1:");
    const read = messages.find((m) => m.role === "tool" && m.tool === "file_read");
    expect(read).toMatchObject({ status: "success" });
    expect(JSON.stringify(read?.role === "tool" && read.result)).toContain("Page 37 line 30");
  });

  it("carries an edited message's files into the new version", async () => {
    const s = await scenario([{ text: "One." }, { text: "Two." }]);
    const notes = await uploaded(s.session, "notes.txt", "Remember the milk.");
    await sendWith(s, "Read it.", [notes.id]);
    const first = (await history(s)).find((m) => m.role === "user");
    await chat(s, "Read it again.", { edit_seq: first?.seq });
    const users = (await history(s)).filter((m) => m.role === "user");
    expect(users.at(-1)).toMatchObject({ attachments: [{ id: notes.id }] });
    const body = JSON.stringify((await modelRequests(llmUrl, s.key)).at(-1)?.body.messages);
    expect(body).toContain("Remember the milk.");
  });
});

describe("what happens to files", () => {
  it("deletes a conversation's files with it, and only an unsent file by itself", async () => {
    const s = await scenario([{ text: "ok" }]);
    const sent = await uploaded(s.session, "sent.txt", "kept with the conversation");
    const unsent = await uploaded(s.session, "unsent.txt", "a chip removed before sending");
    await sendWith(s, "here", [sent.id]);
    const carried = await api(`/api/files/${sent.id}`, { method: "DELETE", headers: s.session.headers });
    expect(carried.status).toBe(409);
    expect((await api(`/api/files/${unsent.id}`, { method: "DELETE", headers: s.session.headers })).status).toBe(204);
    const gone = await api(`/api/conversations/${s.conversationId}`, { method: "DELETE", headers: s.session.headers });
    expect(gone.status).toBe(204);
    expect((await api(sent.url, { headers: s.session.headers })).status).toBe(404);
    expect((await env.FILES.list({ prefix: `files/${s.session.user.id}/` })).objects).toEqual([]);
  });

  it("shows a shared conversation's files through the link only when the owner included them", async () => {
    const s = await scenario([{ text: "ok" }]);
    const png = await uploaded(s.session, "dot.png", TINY_PNG);
    await sendWith(s, "look", [png.id]);
    const make = async (include_files: boolean) => {
      const res = await api(`/api/conversations/${s.conversationId}/shares`, {
        method: "POST",
        json: { include_files },
        headers: s.session.headers,
      });
      return (await res.json()) as Share;
    };
    const withFiles = await make(true);
    const without = await make(false);
    const read = (share: Share, id: string) =>
      api(`/api/shared/${share.id}/files/${id}`, { headers: { "CF-Connecting-IP": "198.51.100.7" } });
    const shown = await read(withFiles, png.id);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("Cache-Control")).toBe("no-store");
    expect(new Uint8Array(await shown.arrayBuffer())).toEqual(TINY_PNG);
    expect((await read(without, png.id)).status).toBe(404);
    // A file of the owner's that the shared messages do not carry is not reachable through the link.
    const other = await uploaded(s.session, "other.png", TINY_PNG);
    expect((await read(withFiles, other.id)).status).toBe(404);
    const page = (await (await api(`/api/shared/${withFiles.id}`)).json()) as { share: { include_files: boolean } };
    expect(page.share.include_files).toBe(true);
  });

  it("sweeps a file uploaded and never sent once a day has passed, at the user's next upload", async () => {
    const session = await signup();
    const stale = await uploaded(session, "forgotten.txt", "the tab was closed");
    const fresh = await uploaded(session, "today.txt", "still on its way");
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000).toISOString();
    await session.db.prepare("UPDATE files SET created_at = ? WHERE id = ?").bind(dayAgo, stale.id).run();
    await uploaded(session, "next.txt", "another upload");
    await eventually(
      () => api(`/api/files/${stale.id}`, { headers: session.headers }).then((r) => r.status),
      (status) => status === 404,
      "the stale unsent file swept",
    );
    expect((await api(`/api/files/${fresh.id}`, { headers: session.headers })).status).toBe(200);
    expect(await env.FILES.head(`files/${session.user.id}/${stale.id}`)).toBeNull();
  });

  it("deletes every file of an account with it, sent or not", async () => {
    const s = await scenario([{ text: "ok" }]);
    const sent = await uploaded(s.session, "sent.txt", "in a message");
    await uploaded(s.session, "unsent.png", TINY_PNG);
    await sendWith(s, "here", [sent.id]);
    expect((await env.FILES.list({ prefix: `files/${s.session.user.id}/` })).objects.length).toBe(3);
    const deleted = await api("/api/account", {
      method: "DELETE",
      json: { username: s.session.user.username, confirm: { password: "correct horse battery" } },
      headers: s.session.headers,
    });
    expect(deleted.status).toBe(204);
    expect((await env.FILES.list({ prefix: `files/${s.session.user.id}/` })).objects).toEqual([]);
    const rows = await s.session.db
      .prepare("SELECT count(*) AS n FROM files WHERE user_id = ?")
      .bind(s.session.user.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("exports the files in the account's zip, and the Markdown links them", async () => {
    const s = await scenario([{ text: "ok" }]);
    const session = s.session;
    const file = await uploaded(session, "notes.md", "# Exported");
    await sendWith(s, "keep this", [file.id]);
    const res = await api("/api/account/export", { headers: session.headers });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const { unzipSync, strFromU8 } = await import("fflate");
    const entries = unzipSync(bytes);
    const name = Object.keys(entries).find((n) => n.endsWith(`files/${file.id}/notes.md`));
    expect(name).toBeDefined();
    expect(strFromU8(entries[name as string] as Uint8Array)).toBe("# Exported");
    // The conversation's Markdown links the message's file where the zip holds it.
    const md = Object.entries(entries).find(([n]) => n.includes(`-${s.conversationId}.md`));
    expect(strFromU8(md?.[1] as Uint8Array)).toContain(
      `- Attached: [notes.md](../files/${file.id}/notes.md) (text/markdown, 10 B)`,
    );
  });
});
