// An MCP server's elicitation request as a card (agent/tools/elicitation.ts) and the card's answer
// checked (protocol/elicitation.ts): every kind of field the spec has, in both spellings of choices;
// what cannot be shown honestly is declined; an answer is checked against the fields, defaults filled.
import { describe, expect, it } from "vitest";
import { askOf, recordOf, resultOf } from "../../../agent/tools/elicitation";
import { checkElicitationAnswer, MAX_ELICITATION_FIELDS } from "../../../protocol";

const policy = { allowLoopback: false, maxResponseBytes: 1 };

const form = (properties: Record<string, unknown>, required: string[] = []) =>
  askOf(
    "srv",
    { mode: "form", message: "Tell me", requestedSchema: { type: "object", properties, required } } as never,
    policy,
  );

describe("a form request as a card", () => {
  it("takes titled single and multiple choices, old enumNames and bounds", () => {
    const ask = form({
      size: {
        type: "string",
        oneOf: [
          { const: "s", title: "Small" },
          { const: "l", title: "Large" },
        ],
        default: "l",
      },
      tone: { type: "string", enum: ["a", "b"], enumNames: ["Calm", "Bold"] },
      tags: {
        type: "array",
        items: {
          anyOf: [
            { const: "x", title: "Ex" },
            { const: "y", title: "Why" },
          ],
        },
        minItems: 1,
        maxItems: 2,
        default: ["y", "zzz"],
      },
      mail: { type: "string", format: "email", maxLength: 80 },
      score: { type: "number", minimum: 0.5 },
    });
    expect(ask).toMatchObject({
      mode: "form",
      fields: [
        {
          name: "size",
          kind: "choice",
          options: [
            { value: "s", label: "Small" },
            { value: "l", label: "Large" },
          ],
          default: "l",
        },
        {
          name: "tone",
          kind: "choice",
          options: [
            { value: "a", label: "Calm" },
            { value: "b", label: "Bold" },
          ],
        },
        // A default that is not one of the choices is dropped.
        { name: "tags", kind: "choices", min: 1, max: 2, default: ["y"] },
        { name: "mail", kind: "text", format: "email", max: 80 },
        { name: "score", kind: "number", min: 0.5 },
      ],
    });
  });

  it("declines what a form cannot ask: an object field, too many fields", () => {
    expect(form({ nested: { type: "object", properties: {} } })).toEqual({
      declined: "its field nested is not one of the kinds a form can ask for",
    });
    const many = Object.fromEntries(
      Array.from({ length: MAX_ELICITATION_FIELDS + 1 }, (_, i) => [`f${i}`, { type: "string" }]),
    );
    expect(form(many)).toMatchObject({ declined: expect.stringMatching(/at most 20/) });
  });

  it("offers a link only where the Worker itself would go", () => {
    const url = (u: string) => askOf("srv", { mode: "url", message: "Go", elicitationId: "e", url: u }, policy);
    expect(url("https://example.com/a b")).toMatchObject({ mode: "url", url: "https://example.com/a%20b" });
    for (const bad of [
      "javascript:alert(1)",
      "data:text/html,x",
      "file:///etc/passwd",
      "http://example.com/",
      "https://192.168.1.1/",
      "https://127.0.0.1/",
    ])
      expect(url(bad)).toHaveProperty("declined");
  });
});

describe("an answer", () => {
  const ask = form(
    {
      city: { type: "string", title: "City", minLength: 2 },
      days: { type: "integer", title: "Days", minimum: 1, maximum: 14, default: 3 },
      go: { type: "boolean", title: "Go", default: true },
      tags: { type: "array", title: "Tags", items: { enum: ["x", "y"] }, maxItems: 1 },
    },
    ["city"],
  );
  if ("declined" in ask) throw new Error("declined");
  const fields = ask.fields ?? [];

  it("must fit its fields", () => {
    expect(checkElicitationAnswer(fields, { city: "Lyon" })).toBeUndefined();
    expect(checkElicitationAnswer(fields, {})).toEqual({ field: "city", message: "City is required" });
    expect(checkElicitationAnswer(fields, { city: "L" })?.message).toBe("City must be at least 2 characters");
    expect(checkElicitationAnswer(fields, { city: "Lyon", days: 2.5 })?.message).toBe("Days must be a whole number");
    expect(checkElicitationAnswer(fields, { city: "Lyon", go: "yes" })?.message).toBe("Go must be yes or no");
    expect(checkElicitationAnswer(fields, { city: "Lyon", tags: ["x", "y"] })?.message).toBe("Tags pick at most 1");
    expect(checkElicitationAnswer(fields, { city: "Lyon", tags: ["z"] })?.message).toBe(
      "Tags must be among the choices",
    );
    expect(checkElicitationAnswer(fields, { city: "Lyon", admin: true })).toEqual({
      field: "admin",
      message: "is not a field of this form",
    });
  });

  it("goes to the server with the defaults filled in, and to the chat in words", () => {
    const reply = { outcome: "accept" as const, content: { city: "Lyon", tags: ["x"] } };
    expect(resultOf(ask, reply)).toEqual({
      action: "accept",
      content: { city: "Lyon", days: 3, go: true, tags: ["x"] },
    });
    expect(resultOf(ask, { outcome: "timed_out" })).toEqual({ action: "cancel" });
    expect(resultOf(ask, { outcome: "decline" })).toEqual({ action: "decline" });
    expect(recordOf(ask, reply).answers).toEqual([
      { label: "City", value: "Lyon" },
      { label: "Days", value: "3" },
      { label: "Go", value: "yes" },
      { label: "Tags", value: "x" },
    ]);
  });
});
