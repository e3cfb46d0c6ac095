// A provider's failure in plain words (agent/llm/error-words.ts): what failed and what to fix, short,
// from the real error objects the AI SDK and Node throw.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { APICallError, JSONParseError, TypeValidationError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { explainModelError, MAX_ERROR_WORDS } from "../../agent/llm/error-words";
import { ModelCallError, ModelTimeout } from "../../agent/llm/model-call-error";

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const URL = "https://api.example.com/v1/chat/completions";

const apiError = (statusCode: number | undefined, responseBody?: string, message = "Bad things") =>
  new APICallError({ message, url: URL, requestBodyValues: {}, statusCode, responseBody });

describe("explainModelError", () => {
  it("says the key was refused for 401 and 403, and where to fix it", () => {
    for (const status of [401, 403]) {
      const words = explainModelError(apiError(status, '{"error":{"message":"Incorrect API key provided: sk-abc"}}'), {
        providerName: "OpenRouter",
      });
      expect(words).toBe(`OpenRouter refused the API key (HTTP ${status}). Check the key in Settings → Models.`);
    }
  });

  it("sends the operator's users elsewhere: they cannot change the app's key", () => {
    const words = explainModelError(apiError(401), { operator: true });
    expect(words).toMatch(/refused the API key \(HTTP 401\)/);
    expect(words).not.toMatch(/Settings/);
  });

  it("points at the base URL and the model name for a 404", () => {
    const words = explainModelError(apiError(404, "<html>Not Found</html>"), { providerName: "llama" });
    expect(words).toContain("no such model or URL (HTTP 404)");
    expect(words).toContain("/v1");
    expect(words).not.toContain("<html>");
  });

  it("names rate limits, server failures and refused requests with their status", () => {
    expect(explainModelError(apiError(429))).toMatch(/rate limiting.*out of credit \(HTTP 429\)/);
    expect(explainModelError(apiError(503))).toMatch(/failed \(HTTP 503\)\. Try again.*another model/);
    const bad = explainModelError(apiError(400, '{"error":{"message":"max_tokens is too large: 99999"}}'));
    expect(bad).toBe("The model server refused the request (HTTP 400): max_tokens is too large: 99999");
  });

  it("reads the status through a retry's last error and the loop's ModelCallError", () => {
    const wrapped = new ModelCallError("HTTP 401: nope", { cause: apiError(401) });
    expect(explainModelError(wrapped)).toMatch(/refused the API key \(HTTP 401\)/);
    const retried = Object.assign(new Error("Failed after 3 attempts"), {
      name: "AI_RetryError",
      lastError: apiError(502),
    });
    expect(explainModelError(retried)).toMatch(/failed \(HTTP 502\)/);
    // Only the words are left (a saved message): the status still counts.
    expect(explainModelError("HTTP 429: Too Many Requests")).toMatch(/rate limiting/);
  });

  it("says which host could not be reached for a real refused connection", async () => {
    const port = await closedPort();
    const error = await fetch(`http://127.0.0.1:${port}/v1/models`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(explainModelError(error)).toBe(
      `Could not reach 127.0.0.1:${port} (connection refused). Check the base URL and that the server is running.`,
    );
    // The AI SDK's own wrapping of it keeps the URL's host.
    const sdk = new APICallError({
      message: "Cannot connect to API: fetch failed",
      url: `http://127.0.0.1:${port}/v1/chat/completions`,
      requestBodyValues: {},
      cause: error,
      isRetryable: true,
    });
    expect(explainModelError(sdk)).toMatch(
      new RegExp(`^Could not reach 127\\.0\\.0\\.1:${port} \\(connection refused\\)`),
    );
  });

  it("says how a server that kept the call waiting timed out: no answer, a stream that stopped, an answer not finished", () => {
    expect(explainModelError(new ModelTimeout("answer", 60), { providerName: "my llama" })).toBe(
      "my llama did not answer within 60 s. Check that the server is running and not overloaded, or pick another model.",
    );
    expect(explainModelError(new ModelTimeout("stream", 0.5))).toBe(
      "The model server stopped sending for 0.5 s. Try again in a moment, or pick another model.",
    );
    expect(explainModelError(new ModelTimeout("finish", 20), { providerName: "Slow" })).toBe(
      "Slow began to answer but did not finish within 20 s. Try again in a moment, or pick another model.",
    );
    // The operator's users cannot check the app's server.
    expect(explainModelError(new ModelTimeout("answer", 60), { operator: true })).toBe(
      "The app's model server did not answer within 60 s. Try again in a moment, or pick another model.",
    );
  });

  it("turns a 17,000-character validation error into one short sentence naming the other style", () => {
    const schema = z.union([z.object({ choices: z.array(z.unknown()) }), z.object({ error: z.string() })]);
    const value = { id: "x", object: "weird", data: "y".repeat(17_000) };
    const parsed = schema.safeParse(value);
    if (parsed.success) throw new Error("the value should not pass");
    const error = new TypeValidationError({ value, cause: parsed.error });
    expect(error.message.length).toBeGreaterThan(17_000);
    const words = explainModelError(error, { providerName: "vLLM", style: "chat" });
    expect(words).toBe(
      "vLLM's answer is not in the expected format. It was called with Chat Completions: try Responses in Settings → Models.",
    );
    expect(words.length).toBeLessThanOrEqual(MAX_ERROR_WORDS);
    const json = new JSONParseError({ text: "<html>oops</html>", cause: new SyntaxError("Unexpected token <") });
    expect(explainModelError(json)).toMatch(/not in the expected format.*Chat Completions or Responses/);
    expect(explainModelError(new Error(`Invalid input: ${"x".repeat(5000)} invalid_union`))).toMatch(
      /not in the expected format/,
    );
  });

  it("says a redirect is not followed, and what to use instead", () => {
    expect(explainModelError(apiError(301, "", "Moved Permanently"))).toBe(
      "The model server answered with a redirect (HTTP 301), which the app does not follow. Use the address it redirects to as the base URL (often https://…).",
    );
  });

  it("names the outbound policy's refusals: a private address, an answer over the cap", () => {
    const refused = (message: string) => Object.assign(new Error(message), { name: "OutboundRefused" });
    expect(explainModelError(refused("refused: 10.0.0.8 is a private, link-local or reserved address"))).toBe(
      "The app may not call this address: 10.0.0.8 is a private, link-local or reserved address.",
    );
    expect(explainModelError(refused("response larger than 67108864 bytes"), { providerName: "P" })).toBe(
      "P sent a larger answer than the app accepts (response larger than 67108864 bytes).",
    );
  });

  it("keeps anything else to a short first line", () => {
    const words = explainModelError(new Error(`Something odd\n${"at frame\n".repeat(500)}`));
    expect(words).toBe("Something odd");
    const long = explainModelError(new Error("z".repeat(5000)));
    expect(long.length).toBe(MAX_ERROR_WORDS);
    expect(long.endsWith("…")).toBe(true);
    expect(explainModelError(undefined)).toBe("The model call failed.");
  });
});
