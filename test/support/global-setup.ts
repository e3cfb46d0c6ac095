// vitest globalSetup of the `workers` project: starts the fake OpenAI server, the MCP servers and the web
// pages in Node (workerd cannot listen) and hands its address to tests and to vitest.config.ts, which points OPENAI_BASE_URL at it.
import type { TestProject } from "vitest/node";
import { startFakeOpenAI } from "./fake-openai.ts";
import { startFakeSearch } from "./fake-search.ts";
import { MCP_TEST_TOKEN } from "./mcp-calls.ts";
import { startElicitServer } from "./mcp-elicit-server.ts";
import { startMcpServer } from "./mcp-server.ts";
import { startOAuthFactory } from "./oauth-server.ts";
import { startTinyIssuer } from "./tiny-issuer.ts";
import { startWebFixtures } from "./web-fixtures.ts";

// `inject("llmUrl")` is typed by the ProvidedContext augmentation in fake-openai-client.ts (which the
// workers tsconfig includes).
export default async function setup({ provide }: TestProject) {
  const fake = await startFakeOpenAI();
  provide("llmUrl", fake.url);
  // Real MCP servers (the official SDK's): one open, one that wants a bearer token.
  const [open, guarded, asking] = await Promise.all([
    startMcpServer(),
    startMcpServer({ token: MCP_TEST_TOKEN }),
    startElicitServer(),
  ]);
  provide("mcpUrl", open.url);
  provide("mcpTokenUrl", guarded.url);
  provide("mcpElicitUrl", asking.url);
  // OAuth authorization servers, each test its own (oauth-factory.ts).
  const oauth = await startOAuthFactory();
  provide("oauthFactoryUrl", oauth.url);
  // OpenID Connect issuers that get one check of an ID token wrong each (tiny-issuer.ts).
  const issuers = await startTinyIssuer();
  provide("tinyIssuerUrl", issuers.url);
  // Web pages for the page reader (web-fixtures.ts).
  const web = await startWebFixtures();
  provide("webFixturesUrl", web.url);
  // The four search providers' APIs (fake-search.ts), each under its own prefix.
  const search = await startFakeSearch();
  provide("fakeSearchUrl", search.url);
  return async () => {
    await Promise.all([
      fake.close(),
      open.close(),
      guarded.close(),
      asking.close(),
      oauth.close(),
      issuers.close(),
      web.close(),
      search.close(),
    ]);
  };
}
