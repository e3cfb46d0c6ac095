// The wire contract of docs/protocol.md as zod schemas, imported by the Worker, the Durable Object and the client.
// First, so no schema is parsed before zod is told never to try eval.
import "./zod-config";

export * from "./account";
export * from "./account-data";
export * from "./account-deletion";
export * from "./admin";
export * from "./agent-config";
export * from "./approvals";
export * from "./auth";
export * from "./chatgpt";
export * from "./conversation";
export * from "./elicitation";
export * from "./errors";
export * from "./events";
export * from "./files";
export * from "./frames";
export * from "./library";
export * from "./mcp";
export * from "./message";
export * from "./message-origin";
export * from "./models";
export * from "./notes";
export * from "./oidc";
export * from "./passkeys";
export * from "./quota";
export * from "./same-path";
export * from "./share";
export * from "./subscriber";
export * from "./system-item";
export * from "./time-zone";
export * from "./tool-words";
export * from "./usage";
export * from "./web";
export * from "./well-formed";
