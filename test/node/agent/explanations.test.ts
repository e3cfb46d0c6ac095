import { describe, expect, it } from "vitest";
import { composeFinal, explainTermination, modelWords, summarizeActions } from "../../../agent/explanations";
import { TERMINATION_REASONS } from "../../../protocol";
import { failed, ok, state } from "./fixtures";

describe("explainTermination", () => {
  it("explains every reason but a plain completion", () => {
    for (const reason of TERMINATION_REASONS) {
      const why = explainTermination(reason, state());
      if (reason === "completed") expect(why).toBeUndefined();
      else expect(why?.trim()).toBeTruthy();
    }
  });

  it("names the limit with its figures (FR-007)", () => {
    const s = state(
      { step: 10, inputTokens: 40_000, outputTokens: 12_345, consecutiveErrors: 3 },
      {
        maxIterations: 10,
        tokenBudget: 50_000,
        timeoutSeconds: 90,
        requestInputTimeoutSeconds: 300,
      },
    );
    expect(explainTermination("max_iterations", s)).toContain("(10/10)");
    expect(explainTermination("token_budget", s)).toContain("52,345 of 50,000 tokens");
    expect(explainTermination("timeout", s)).toContain("90 s");
    expect(explainTermination("input_timeout", s)).toContain("300 s");
  });

  it("names the repeated tool and the last error", () => {
    const actions = [failed("vault_read", { p: 1 }, "no note at that path")];
    const s = state({ actions, consecutiveErrors: 3, llmError: "rate limited" });
    expect(explainTermination("no_progress", s)).toContain("vault_read");
    expect(explainTermination("error_limit", s)).toContain("3 tool errors");
    expect(explainTermination("error_limit", s)).toContain("no note at that path");
    expect(explainTermination("llm_error", s)).toContain("rate limited");
  });
});

describe("summarizeActions", () => {
  it("counts attempts per tool in first-use order", () => {
    const s = state({ actions: [ok("vault_search"), ok("vault_read"), ok("vault_search", { q: 2 })] });
    expect(summarizeActions(s)).toBe("vault_search ×2, vault_read");
  });
});

describe("composeFinal", () => {
  it("keeps a completed answer as it is", () => {
    expect(composeFinal("The answer.", "completed", state())).toEqual({ content: "The answer." });
  });

  it("puts the explanation after the accumulated text", () => {
    const s = state({ step: 3 }, { maxIterations: 3 });
    const final = composeFinal("Partial work.", "max_iterations", s);
    expect(final.content.startsWith("Partial work.")).toBe(true);
    expect(final.note).toBe(explainTermination("max_iterations", s));
    expect(final.content).toBe(`Partial work.\n\n— ${final.note}`);
    // What the model reads back of it is its own words only.
    expect(modelWords(final)).toBe("Partial work.");
  });

  it("keeps the product's words apart when the model wrote nothing", () => {
    const s = state({ actions: [ok("vault_search")] });
    const final = composeFinal("", "llm_error", { ...s, llmError: "The server refused the API key (HTTP 401)." });
    expect(final.note).toBe(final.content);
    expect(final.content).toContain("The model call failed: The server refused the API key (HTTP 401).");
    expect(modelWords(final)).toBe("");
    expect(modelWords({ content: "legacy text\n\n— Stopped by the user." })).toBe(
      "legacy text\n\n— Stopped by the user.",
    );
  });

  it("says what was attempted when there is no text (seed 001 edge case)", () => {
    const s = state({ actions: [ok("vault_search"), ok("vault_search", { q: 1 }), ok("vault_search", { q: 2 })] });
    const final = composeFinal("  ", "no_progress", s).content;
    expect(final).toContain("vault_search ×3");
    expect(final).toContain(explainTermination("no_progress", s));
  });

  it("is never empty, whatever the reason, text or history", () => {
    for (const reason of TERMINATION_REASONS) {
      for (const text of ["", " \n\t"]) {
        for (const actions of [[], [ok("t")]]) {
          expect(
            composeFinal(text, reason, state({ actions })).content.trim(),
            `${reason} ${JSON.stringify(text)}`,
          ).not.toBe("");
        }
      }
    }
  });
});
