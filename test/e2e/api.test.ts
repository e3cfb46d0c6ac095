// The running app as `npm start` serves it: wrangler dev, no LLM key, so the demo provider answers
// (the run's shared demo-model app; no browser).
import { expect, it } from "vitest";
import { useSharedApp } from "./harness.ts";

const live = useSharedApp({ browser: false });

it("reports health with the demo model when no key is configured", async () => {
  const res = await fetch(`${live.app.url}/api/health`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  expect(await res.json()).toMatchObject({ ok: true, model: { provider: "demo", model: expect.any(String) } });
});

it("serves the client app at / and, as a SPA, at deep links", async () => {
  for (const path of ["/", "/signup"]) {
    const res = await fetch(`${live.app.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toMatch(/<script[^>]+src=/); // the built bundle, not a placeholder
  }
});

it("answers unknown API routes with a JSON error, never HTML", async () => {
  const res = await fetch(`${live.app.url}/api/no-such-route`);
  expect(res.status).toBe(404);
  expect(await res.json()).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
});
