// The user's MCP servers as the agent's tools, for one turn: each enabled server is connected once at
// the turn's start (in parallel, with a deadline) and its tools listed once, so every model call of the
// turn sees the same tools in the same order (a stable, cacheable prefix). A tool is offered as
// `<server>__<tool>` with the server's own JSON Schema; arguments are checked against that schema
// before the call (invalid_args), and the executor applies the per-call timeout and Stop to the call,
// which the SDK turns into a cancellation sent to the server. A server that cannot be reached is
// reported (one System message) and the turn goes on with the other tools.
import type { OutputUnit } from "@cfworker/json-schema";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { disabledToolsOf, endpointOf, type McpServerRow } from "../../d1/mcp-servers";
import type { DiscoveredTool, McpSession } from "../../mcp/client";
import { OAuthAuthorizationNeeded, OAuthRefreshFailed } from "../../mcp/oauth-rules";
import { boundedValidator } from "../../mcp/tool-schema";
import { type OutboundPolicy, outboundPolicy } from "../../outbound/policy";
import { mcpApprovalKey, qualifiedToolName } from "../../protocol";
import { safeEnd } from "../context/model-messages";
import { neutralizeReminders } from "../system-items/forgery";
import { askOf, resultOf } from "./elicitation";
import { type AgentTool, DEFAULT_TOOL_TIMEOUT_MS, ToolError } from "./tool";

/** What a result may add to the log and the context: the context cuts further to fit its budget. */
export const MAX_RESULT_CHARS = 32_000;
const MAX_ERROR_CHARS = 2_000;
const MAX_DESCRIPTION_CHARS = 1_024;
/** MCP tools offered in one turn, all servers together: providers cap a request's tools (OpenAI: 128). */
export const MAX_MCP_TOOLS = 100;

export interface McpUnavailable {
  server: string;
  error: string;
  /** The server answered, but not all of its tools could be offered. */
  partial?: boolean;
}

export interface McpToolbox {
  tools: AgentTool[];
  unavailable: McpUnavailable[];
  /** Ends every connection (the turn is over). */
  close(): Promise<void>;
}

/** `ownerDb`: the owner's shard, where an OAuth server's token about to run out is refreshed (d1/mcp-oauth.ts). */
export type McpEnv = Pick<Env, "SECRETS_KEY" | "ALLOW_LOOPBACK" | "MCP_ALLOW_LOOPBACK" | "MCP_TOOL_TIMEOUT_SECONDS"> & {
  ownerDb?: D1Database;
};

export const NO_MCP: McpToolbox = { tools: [], unavailable: [], close: async () => {} };

export function mcpToolTimeoutMs(env: McpEnv): number {
  const seconds = Number(env.MCP_TOOL_TIMEOUT_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_TOOL_TIMEOUT_MS;
}

/** A text at most `max` characters long, saying how much it left out. */
export function sized(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = safeEnd(text, max);
  return `${text.slice(0, end)}\n[… ${(text.length - end).toLocaleString("en-US")} more characters not shown]`;
}

/** The result's content as text: text parts as they are, anything else named in brackets. */
function contentText(result: CallToolResult): string {
  return (result.content ?? [])
    .map((part) => {
      switch (part.type) {
        case "text":
          return part.text;
        case "image":
        case "audio":
          return `[${part.type}: ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`;
        case "resource_link":
          return `[resource: ${part.uri}]`;
        case "resource":
          return "text" in part.resource ? part.resource.text : `[resource: ${part.resource.uri}]`;
        default:
          return "[unsupported content]";
      }
    })
    .join("\n");
}

/** What the tool message keeps: the text, with the structured content when the server gave one that fits. */
export function toolResultValue(result: CallToolResult): unknown {
  const text = sized(contentText(result), MAX_RESULT_CHARS);
  const structured = result.structuredContent;
  if (structured === undefined) return text;
  if (JSON.stringify(structured).length + text.length > MAX_RESULT_CHARS)
    return `${text}\n[structured content left out: too large]`;
  return { content: text, structured };
}

/** Keywords whose error only says "something inside failed": the inner error says what. */
const WRAPPER_KEYWORDS = new Set(["properties", "items", "prefixItems", "allOf", "$ref", "false", "contains"]);

function firstProblem(errors: readonly OutputUnit[]): { path: string[]; message: string } | undefined {
  const unit = errors.find((e) => !WRAPPER_KEYWORDS.has(e.keyword)) ?? errors[0];
  if (!unit) return undefined;
  return { path: unit.instanceLocation.replace(/^#\/?/, "").split("/").filter(Boolean), message: unit.error };
}

/**
 * A zod schema that passes what the server's JSON Schema passes, checked on its bounded reduction
 * (mcp/tool-schema.ts: no regex, format or ref from the server ever runs here), so the executor's
 * invalid_args applies; what the reduction leaves out, the server itself refuses.
 */
export function jsonSchemaArgs(schema: Record<string, unknown>): z.ZodType {
  const validator = boundedValidator(schema, false);
  return z.unknown().superRefine((value, ctx) => {
    const problem = firstProblem(validator.validate(value ?? {}).errors);
    if (problem) ctx.addIssue({ code: "custom", message: problem.message, path: problem.path });
  });
}

/** A tool's schema as the model reads it, at most this long as JSON: each is resent with every request. */
const MAX_OFFERED_SCHEMA_CHARS = 16_000;
const MAX_OFFERED_SCHEMA_DEPTH = 32;

class TooDeep extends Error {}

/** A copy with every string a server wrote (keys too: property names) through the one neutraliser. */
function defused(value: unknown, depth: number): unknown {
  if (typeof value === "string") return neutralizeReminders(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_OFFERED_SCHEMA_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) return value.map((v) => defused(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [neutralizeReminders(k), defused(v, depth + 1)]));
}

/**
 * The schema as the model gets it: without the `$schema` line, which only costs tokens, and with every
 * description, title, enum value or other text of the server's defused, since it reaches the model as
 * the tool list. A string instead says why the tool cannot be offered.
 */
function offeredSchema(schema: Record<string, unknown>): Record<string, unknown> | string {
  const { $schema: _, ...rest } = schema;
  let copy: Record<string, unknown>;
  try {
    copy = defused({ type: "object", ...rest }, 0) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TooDeep) return `its argument schema is nested over ${MAX_OFFERED_SCHEMA_DEPTH} levels deep`;
    throw error;
  }
  const chars = JSON.stringify(copy).length;
  if (chars > MAX_OFFERED_SCHEMA_CHARS)
    return `its argument schema is too large (${chars.toLocaleString("en-US")} characters; at most ${MAX_OFFERED_SCHEMA_CHARS.toLocaleString("en-US")})`;
  return copy;
}

function asAgentTool(
  server: Pick<McpServerRow, "id" | "name">,
  session: McpSession,
  tool: DiscoveredTool,
  timeoutMs: number,
  policy: OutboundPolicy,
): AgentTool | string {
  const inputSchema = offeredSchema(tool.inputSchema);
  if (typeof inputSchema === "string") return `${tool.name} left out: ${inputSchema}`;
  const serverName = server.name;
  return {
    name: qualifiedToolName(serverName, tool.name),
    // The server's words reach the model with the tool list: they must not pose as a system item either.
    description: sized(
      neutralizeReminders(`[MCP server ${serverName}] ${tool.description}`.trim()),
      MAX_DESCRIPTION_CHARS,
    ),
    args: jsonSchemaArgs(tool.inputSchema),
    inputSchema,
    timeoutMs,
    // Re-run after a restart only when the server says a second call changes nothing (resume.ts).
    ...(tool.readOnly ? { readOnly: true } : {}),
    ...(tool.idempotent ? { idempotent: true } : {}),
    // A tool that may change something asks the user first, unless they said otherwise (approval.ts).
    approval: { key: mcpApprovalKey(server.id, tool.name), askByDefault: !tool.readOnly },
    async execute(args, ctx) {
      // The SDK's own timeout a little later than the executor's, whose message names the tool and limit.
      const elicit = ctx.elicit;
      const result = await session.callTool(tool.name, args ?? {}, {
        signal: ctx.signal,
        timeoutMs: timeoutMs + 1000,
        // The server may ask the user mid-call: a card in the chat (elicitation.ts), or declined unasked
        // when the request cannot be shown honestly.
        ...(elicit && {
          onElicit: async (params) => {
            const ask = askOf(serverName, params, policy);
            return "declined" in ask ? { action: "decline" } : resultOf(ask, await elicit(ask));
          },
        }),
      });
      if (result.isError)
        throw new ToolError(sized(contentText(result) || "the tool reported an error", MAX_ERROR_CHARS));
      return toolResultValue(result);
    },
  };
}

/**
 * The MCP client, loaded when a turn has a server to connect: the SDK defines hundreds of schemas at
 * load (66 ms median to load it in Node, zod already loaded), which no cold start of a user without servers
 * should pay.
 */
type McpClient = typeof import("../../mcp/client");

async function openServer(
  client: McpClient,
  row: McpServerRow,
  env: McpEnv,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ session: McpSession; tools: AgentTool[]; leftOut: string[] }> {
  let endpoint: Awaited<ReturnType<typeof endpointOf>>;
  try {
    // With the owner's shard, an OAuth server's token is refreshed first when it is about to run out (d1/mcp-oauth.ts).
    endpoint = await endpointOf(
      row,
      env.SECRETS_KEY,
      env.ownerDb ? { db: env.ownerDb, policy: outboundPolicy(env) } : undefined,
    );
  } catch (error) {
    // An OAuth grant that expired, was revoked or could not be refreshed says so in its own words.
    if (error instanceof OAuthAuthorizationNeeded || error instanceof OAuthRefreshFailed) throw error;
    throw new Error("its saved secret could not be read; save it again in Settings → Tools");
  }
  const session = await client.connectMcp(endpoint, outboundPolicy(env), signal);
  try {
    const disabled = new Set(disabledToolsOf(row));
    const listed = await session.listTools(signal);
    const made = listed
      .filter((t) => !disabled.has(t.name))
      .map((t) => asAgentTool(row, session, t, timeoutMs, outboundPolicy(env)));
    return {
      session,
      tools: made.filter((t): t is AgentTool => typeof t !== "string"),
      leftOut: made.filter((t): t is string => typeof t === "string"),
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** Connects to the servers (rows in name order) and lists their tools; a server that fails is reported, not fatal. */
export async function openMcpToolbox(
  rows: readonly McpServerRow[],
  env: McpEnv,
  signal: AbortSignal,
): Promise<McpToolbox> {
  if (!rows.length) return NO_MCP;
  const timeoutMs = mcpToolTimeoutMs(env);
  const client: McpClient = await import("../../mcp/client");
  const opened = await Promise.allSettled(rows.map((row) => openServer(client, row, env, signal, timeoutMs)));
  const sessions: McpSession[] = [];
  const tools: AgentTool[] = [];
  const unavailable: McpUnavailable[] = [];
  const taken = new Set<string>();
  opened.forEach((outcome, i) => {
    const server = rows[i]?.name ?? "";
    if (outcome.status === "rejected") {
      unavailable.push({ server, error: client.describeMcpError(outcome.reason) });
      return;
    }
    sessions.push(outcome.value.session);
    let left = 0;
    // Two tool names that become one after sanitising: the first (in name order) keeps it.
    for (const tool of outcome.value.tools) {
      if (taken.has(tool.name)) continue;
      if (tools.length >= MAX_MCP_TOOLS) left++;
      else {
        taken.add(tool.name);
        tools.push(tool);
      }
    }
    const leftOut = [...outcome.value.leftOut];
    if (left) leftOut.push(`${left} of its tools left out: at most ${MAX_MCP_TOOLS} MCP tools per turn`);
    if (leftOut.length) unavailable.push({ server, error: leftOut.join("; "), partial: true });
  });
  return {
    tools,
    unavailable,
    close: async () => {
      await Promise.all(sessions.map((s) => s.close()));
    },
  };
}
