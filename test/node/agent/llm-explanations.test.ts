// The explanation a failed model call leaves in the saved answer quotes the provider's error, which
// often ends with its own full stop ("Network connection lost."): one stop, never two.
import { describe, expect, it } from "vitest";
import { composeFinal, explainTermination, sentence } from "../../../agent/explanations";
import { failed, state } from "./fixtures";

describe("sentence", () => {
  it("adds a full stop only where none ends the text", () => {
    expect(sentence("Network connection lost")).toBe("Network connection lost.");
    expect(sentence("Network connection lost.")).toBe("Network connection lost.");
    expect(sentence("Is the key right?")).toBe("Is the key right?");
    expect(sentence("Stop!  ")).toBe("Stop!");
    expect(sentence("It said “done.”")).toBe("It said “done.”");
    expect(sentence("failed (see the logs.)")).toBe("failed (see the logs.)");
    expect(sentence("version 1.5")).toBe("version 1.5.");
  });
});

describe("explanations that quote an error", () => {
  it("end a model error that has its own full stop with one", () => {
    const why = explainTermination("llm_error", state({ llmError: "Network connection lost." }));
    expect(why).toBe("The model call failed: Network connection lost.");
  });

  it("end the last tool error with one full stop", () => {
    const s = state({ actions: [failed("vault_read", {}, "No note at a.md.")], consecutiveErrors: 3 });
    expect(explainTermination("error_limit", s)).toBe(
      "Stopped after 3 tool errors in a row; the last one: No note at a.md.",
    );
  });
});

describe("an answer that hit the output limit", () => {
  it("says so after the text, also when the turn completed", () => {
    expect(composeFinal("Most of it", "completed", state(), { outputLimited: true })).toEqual({
      content: "Most of it\n\n— The answer hit the model's output limit and may be incomplete.",
      note: "The answer hit the model's output limit and may be incomplete.",
    });
  });
});
