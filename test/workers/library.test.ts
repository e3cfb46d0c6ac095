// Knowledge entries and workflows (seed 002 `#slug` / `/slug`): the stores the reference resolver
// calls, the default entries, and the /api/knowledge and /api/workflows routes of the real Worker.
import { describe, expect, it } from "vitest";
import { parseReferences } from "../../agent/references/parse";
import { applyCandidate, findTrigger, noteCandidates, rankCandidates } from "../../client/src/lib/completion";
import { DEFAULT_KNOWLEDGE, DEFAULT_WORKFLOWS } from "../../d1/library/defaults";
import { deleteKnowledge, getKnowledge, listKnowledge, putKnowledge } from "../../d1/library/knowledge-store";
import { deleteWorkflow, getWorkflow, listWorkflows, putWorkflow } from "../../d1/library/workflow-store";
import { api, type Session, signup } from "./helpers";

/** Calls the real Worker (worker/app.ts mounts these routes), as a signed-in browser or anonymously. */
function call(session: Session | undefined, path: string, method = "GET", json?: unknown): Promise<Response> {
  const headers: Record<string, string> = { ...session?.headers };
  if (json !== undefined) headers["Content-Type"] = "application/json";
  const body = json === undefined ? undefined : typeof json === "string" ? json : JSON.stringify(json);
  return api(path, { method, headers, body });
}

type Entries = { entries: { slug: string; title: string; body: string; updated_at: string }[] };
const slugs = async (session: Session, kind: "knowledge" | "workflows") =>
  ((await (await call(session, `/api/${kind}`)).json()) as Entries).entries.map((e) => e.slug);

const DEFAULT_KNOWLEDGE_SLUGS = DEFAULT_KNOWLEDGE.map((e) => e.slug).sort();
const DEFAULT_WORKFLOW_SLUGS = DEFAULT_WORKFLOWS.map((e) => e.slug).sort();

describe("library defaults", () => {
  it("are the suggested entries, valid by the library's own rules", () => {
    expect(DEFAULT_KNOWLEDGE_SLUGS).toEqual(["oracle", "writing-style"]);
    expect(DEFAULT_WORKFLOW_SLUGS).toEqual(["plan", "review-notes", "summarize"]);
    for (const entry of [...DEFAULT_KNOWLEDGE, ...DEFAULT_WORKFLOWS]) {
      expect(entry.slug).toMatch(/^[a-z][a-z0-9-]{0,39}$/);
      expect(entry.title.length).toBeLessThanOrEqual(120);
      expect(entry.body.length).toBeLessThanOrEqual(20_000);
    }
  });

  it("appear once, on the first read, with every field", async () => {
    const session = await signup();
    const first = await call(session, "/api/knowledge");
    expect(first.status).toBe(200);
    const { entries } = (await first.json()) as Entries;
    expect(entries.map((e) => e.slug)).toEqual(DEFAULT_KNOWLEDGE_SLUGS);
    expect(entries[0]).toEqual({
      slug: "oracle",
      title: expect.any(String),
      body: expect.stringContaining("vault_search"),
      updated_at: expect.any(String),
    });
    // Concurrent first reads of a fresh user still seed once.
    const fresh = await signup();
    await Promise.all([listKnowledge(fresh.db, fresh.user.id), listWorkflows(fresh.db, fresh.user.id)]);
    for (let i = 0; i < 3; i++) {
      expect(await slugs(session, "knowledge")).toEqual(DEFAULT_KNOWLEDGE_SLUGS);
      expect(await slugs(session, "workflows")).toEqual(DEFAULT_WORKFLOW_SLUGS);
      expect(await slugs(fresh, "workflows")).toEqual(DEFAULT_WORKFLOW_SLUGS);
    }
  });

  it("are there on the first lookup, before any list", async () => {
    const session = await signup();
    const plan = await getWorkflow(session.db, session.user.id, "plan");
    expect(plan).toMatchObject({ slug: "plan", body: expect.stringContaining("task_create") });
    const review = await call(session, "/api/workflows/review-notes");
    expect(review.status).toBe(200);
    expect(await review.json()).toMatchObject({ slug: "review-notes", body: expect.stringContaining("vault_search") });
  });

  it("stay deleted and stay edited", async () => {
    const session = await signup();
    expect((await call(session, "/api/knowledge/oracle", "DELETE")).status).toBe(204);
    expect((await call(session, "/api/workflows/summarize", "PUT", { title: "Mine", body: "My way" })).status).toBe(
      200,
    );
    expect((await call(session, "/api/knowledge/oracle")).status).toBe(404);
    expect(await slugs(session, "knowledge")).toEqual(["writing-style"]);
    expect(await getKnowledge(session.db, session.user.id, "oracle")).toBeUndefined();
    expect(await getWorkflow(session.db, session.user.id, "summarize")).toMatchObject({
      title: "Mine",
      body: "My way",
    });
  });

  it("seed before a delete, so deleting a default that was never listed sticks", async () => {
    const session = await signup();
    expect(await deleteWorkflow(session.db, session.user.id, "plan")).toBe(true);
    expect(await slugs(session, "workflows")).toEqual(["review-notes", "summarize"]);
  });

  it("keep an entry the user wrote under a default's slug before the first read", async () => {
    const session = await signup();
    await putKnowledge(session.db, session.user.id, "writing-style", { title: "Mine", body: "Terse." });
    expect(await getKnowledge(session.db, session.user.id, "writing-style")).toMatchObject({ body: "Terse." });
    expect(await slugs(session, "knowledge")).toEqual(DEFAULT_KNOWLEDGE_SLUGS);
  });
});

describe("library stores", () => {
  it("put, get, list and delete, scoped by user", async () => {
    const alice = await signup();
    const bob = await signup();
    const put = await putKnowledge(alice.db, alice.user.id, "stack", { title: "Stack", body: "Workers + D1" });
    expect(put).toEqual({
      slug: "stack",
      title: "Stack",
      body: "Workers + D1",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const again = await putKnowledge(alice.db, alice.user.id, "stack", { title: "Stack", body: "Workers, D1, DOs" });
    expect(again.created_at).toBe(put.created_at);
    expect(again.updated_at >= put.updated_at).toBe(true);
    expect(await getKnowledge(alice.db, alice.user.id, "stack")).toMatchObject({ body: "Workers, D1, DOs" });
    expect(await getKnowledge(bob.db, bob.user.id, "stack")).toBeUndefined();
    expect(await getKnowledge(alice.db, alice.user.id, "missing")).toBeUndefined();
    expect((await listKnowledge(alice.db, alice.user.id)).map((e) => e.slug)).toEqual([
      "oracle",
      "stack",
      "writing-style",
    ]);
    expect(await deleteKnowledge(bob.db, bob.user.id, "stack")).toBe(false);
    expect(await deleteKnowledge(alice.db, alice.user.id, "stack")).toBe(true);
    expect(await deleteKnowledge(alice.db, alice.user.id, "stack")).toBe(false);

    await putWorkflow(alice.db, alice.user.id, "standup", { title: "Standup", body: "List yesterday's tasks." });
    expect(await getWorkflow(alice.db, alice.user.id, "standup")).toMatchObject({ body: "List yesterday's tasks." });
    expect(await getWorkflow(bob.db, bob.user.id, "standup")).toBeUndefined();
    // Knowledge and workflows are separate namespaces.
    expect(await getKnowledge(alice.db, alice.user.id, "standup")).toBeUndefined();
  });
});

describe("library routes", () => {
  for (const kind of ["knowledge", "workflows"] as const) {
    it(`${kind}: put, get, list and delete own entries`, async () => {
      const session = await signup();
      const put = await call(session, `/api/${kind}/daily-notes`, "PUT", { title: "  Daily notes ", body: "Line 1\n" });
      expect(put.status).toBe(200);
      const entry = (await put.json()) as { created_at: string };
      expect(entry).toEqual({
        slug: "daily-notes",
        title: "Daily notes",
        body: "Line 1\n",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const replaced = await call(session, `/api/${kind}/daily-notes`, "PUT", { title: "Daily", body: "Line 2" });
      expect(replaced.status).toBe(200);
      expect(await replaced.json()).toMatchObject({ title: "Daily", body: "Line 2", created_at: entry.created_at });

      const got = await call(session, `/api/${kind}/daily-notes`);
      expect(await got.json()).toMatchObject({ slug: "daily-notes", title: "Daily", body: "Line 2" });
      const list = (await (await call(session, `/api/${kind}`)).json()) as Entries;
      expect(list.entries.find((e) => e.slug === "daily-notes")).toEqual({
        slug: "daily-notes",
        title: "Daily",
        body: "Line 2",
        updated_at: expect.any(String),
      });

      expect((await call(session, `/api/${kind}/daily-notes`, "DELETE")).status).toBe(204);
      const gone = await call(session, `/api/${kind}/daily-notes`);
      expect(gone.status).toBe(404);
      expect(await gone.json()).toMatchObject({ error: { code: "not_found", message: expect.any(String) } });
      expect((await call(session, `/api/${kind}/daily-notes`, "DELETE")).status).toBe(404);
    });

    it(`${kind}: answers 400 with fields for bad slugs and bodies`, async () => {
      const session = await signup();
      const expectFields = async (res: Response, ...fields: string[]) => {
        expect(res.status).toBe(400);
        const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
        expect(body.error.code).toBe("invalid_input");
        expect(Object.keys(body.error.fields).sort()).toEqual(fields.sort());
      };
      const ok = { title: "T", body: "B" };
      for (const slug of ["Upper", "1st", "-x", "has_underscore", "a".repeat(41), "caf%C3%A9"]) {
        await expectFields(await call(session, `/api/${kind}/${slug}`, "PUT", ok), "slug");
        await expectFields(await call(session, `/api/${kind}/${slug}`), "slug");
        await expectFields(await call(session, `/api/${kind}/${slug}`, "DELETE"), "slug");
      }
      expect((await call(session, `/api/${kind}/${"a".repeat(40)}`, "PUT", ok)).status).toBe(200);
      await expectFields(await call(session, `/api/${kind}/x`, "PUT", {}), "title", "body");
      await expectFields(await call(session, `/api/${kind}/x`, "PUT", { title: "  ", body: "B" }), "title");
      await expectFields(await call(session, `/api/${kind}/x`, "PUT", { title: "t".repeat(121), body: "B" }), "title");
      await expectFields(await call(session, `/api/${kind}/x`, "PUT", { title: "T", body: " \n " }), "body");
      await expectFields(
        await call(session, `/api/${kind}/x`, "PUT", { title: "T", body: "b".repeat(20_001) }),
        "body",
      );
      await expectFields(await call(session, `/api/${kind}/x`, "PUT", { title: 5, body: ["B"] }), "title", "body");
      expect((await call(session, `/api/${kind}/x`, "PUT", "{not json")).status).toBe(400);
      expect(
        (await call(session, `/api/${kind}/x`, "PUT", { title: "t".repeat(120), body: "b".repeat(20_000) })).status,
      ).toBe(200);
      expect((await call(session, `/api/${kind}/nothing-here`)).status).toBe(404);
    });

    it(`${kind}: answers 404 for another user's entry and 401 without identity`, async () => {
      const alice = await signup();
      const bob = await signup();
      await call(alice, `/api/${kind}/secret`, "PUT", { title: "Secret", body: "alice only" });
      expect((await call(bob, `/api/${kind}/secret`)).status).toBe(404);
      expect((await call(bob, `/api/${kind}/secret`, "DELETE")).status).toBe(404);
      expect(await slugs(bob, kind)).not.toContain("secret");
      // Bob writing the same slug makes his own entry; Alice's is untouched.
      expect((await call(bob, `/api/${kind}/secret`, "PUT", { title: "Bob's", body: "bob" })).status).toBe(200);
      expect(await (await call(alice, `/api/${kind}/secret`)).json()).toMatchObject({ body: "alice only" });
      const anonymous = await call(undefined, `/api/${kind}`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ error: { code: "unauthorized" } });
      expect((await call(undefined, `/api/${kind}/secret`)).status).toBe(401);
    });
  }
});

// The composer's completion (client/src/lib/completion.ts) is pure; it must agree with the server's parser.
describe("composer completion", () => {
  it("finds the reference typed at the caret only where the parser would read one", () => {
    expect(findTrigger("@", 1)).toEqual({ kind: "note", start: 0, end: 1, query: "" });
    expect(findTrigger("see #wri", 8)).toEqual({ kind: "knowledge", start: 4, end: 8, query: "wri" });
    expect(findTrigger("/pl and more", 3)).toEqual({ kind: "workflow", start: 0, end: 3, query: "pl" });
    expect(findTrigger("x\n/sum", 6)).toMatchObject({ kind: "workflow", query: "sum" });
    expect(findTrigger("@projects/pl", 12)).toMatchObject({ kind: "note", query: "projects/pl" });
    expect(findTrigger("#oracle-x", 3)).toEqual({ kind: "knowledge", start: 0, end: 9, query: "or" });
    for (const [text, caret] of [
      ["and/or", 4],
      ["a@b.com", 3],
      ["issue #12", 9],
      ["#Caps", 5],
      ["/usr/bin", 8],
      ["@a b", 4],
      ["", 0],
    ] as const)
      expect(findTrigger(text, caret)).toBeNull();
  });

  it("inserts a reference the parser reads back", () => {
    const text = "please /pl then #wr for @proj";
    const workflow = findTrigger(text, 10);
    if (!workflow) throw new Error("no trigger");
    const step1 = applyCandidate(text, workflow, { value: "plan" });
    expect(step1).toEqual({ text: "please /plan then #wr for @proj", caret: 13 });
    const end = applyCandidate("#wr", { kind: "knowledge", start: 0, end: 3, query: "wr" }, { value: "writing-style" });
    expect(end).toEqual({ text: "#writing-style ", caret: 15 });
    const folder = applyCandidate(
      "@pro",
      { kind: "note", start: 0, end: 4, query: "pro" },
      {
        value: "projects/",
        folder: true,
      },
    );
    expect(folder).toEqual({ text: "@projects/", caret: 10 });
    const note = applyCandidate(
      "@projects/",
      { kind: "note", start: 0, end: 10, query: "projects/" },
      {
        value: "projects/plan.md",
      },
    );
    expect(parseReferences(step1.text)[0]).toEqual({ kind: "workflow", slug: "plan" });
    expect(parseReferences(`${end.text}${note.text}`)).toEqual([
      { kind: "knowledge", slug: "writing-style" },
      { kind: "file", path: "projects/plan.md" },
    ]);
  });

  it("ranks prefix matches first and lists folders before their notes", () => {
    const candidates = ["review-notes", "plan", "summarize", "plan-b"].map((value) => ({ value }));
    expect(rankCandidates(candidates, "pl").map((c) => c.value)).toEqual(["plan", "plan-b"]);
    expect(rankCandidates(candidates, "notes").map((c) => c.value)).toEqual(["review-notes"]);
    expect(rankCandidates(candidates, "m").map((c) => c.value)).toEqual(["summarize"]);
    expect(noteCandidates(["a.md", "projects/x/plan.md", "projects/y.md", "my notes/z.md", "bad name.md"])).toEqual([
      { value: "a.md" },
      { value: "projects/", detail: "folder", folder: true },
      { value: "projects/x/", detail: "folder", folder: true },
      { value: "projects/x/plan.md" },
      { value: "projects/y.md" },
    ]);
  });
});
