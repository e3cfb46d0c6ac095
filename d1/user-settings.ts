// A user's settings in D1: the AgentConfig they saved (over the defaults) and their subscriber toggles.
// The settings routes read and write them; a conversation's object reads both at the start of a turn,
// in one round trip (loadTurnSettings, or loadTurnStart with the sockets' credential check), with the
// model choices the turn's model is picked from.
import { eq } from "drizzle-orm";
import {
  type AgentConfig,
  type AgentConfigPatch,
  AgentConfigPatchSchema,
  type ApprovalRule,
  DEFAULT_AGENT_CONFIG,
  type ModelRef,
  type QuotaOverride,
} from "../protocol";
import type { Instructions } from "../protocol/projects";
import { database } from "./client";
import { type Credential, firstExpiry, liveCredentialQueries, liveKeys } from "./credentials";
import type { AttachmentColumns } from "./files";
import { instructionsOf, instructionsQuery } from "./instructions";
import { registerLiveQuery } from "./live-conversations";
import { enabledMcpServersQuery, type McpServerRow } from "./mcp-servers";
import { memoriesInScopeQuery } from "./memories";
import { type ConversationProject, conversationProjectFilesQuery, conversationProjectQuery } from "./projects";
import { conversationModelQuery, type ProviderRow, parseModelRef, providersQuery } from "./providers";
import { overrideOf } from "./quotas";
import { agentSettings, subscriberSettings, userQuotas, users } from "./schema";
import { approvalRulesQuery } from "./tool-approvals";
import { type UserWeb, userWebOf, webSettingsQuery } from "./web-settings";

/** A user's subscriber choices: subscriber id → enabled. Missing means the default, enabled. */
export type SubscriberToggles = Map<string, boolean>;

const configQuery = (d1: D1Database, userId: string) =>
  database(d1).select().from(agentSettings).where(eq(agentSettings.userId, userId)).limit(1);

const togglesQuery = (d1: D1Database, userId: string) =>
  database(d1)
    .select({ id: subscriberSettings.subscriberId, enabled: subscriberSettings.enabled })
    .from(subscriberSettings)
    .where(eq(subscriberSettings.userId, userId));

/** The saved config over the defaults; a stored value that no longer passes (bounds changed) is dropped. */
function toConfig(row: { config: unknown } | undefined): AgentConfig {
  const saved = AgentConfigPatchSchema.safeParse(row?.config ?? {});
  return { ...DEFAULT_AGENT_CONFIG, ...(saved.success ? saved.data : {}) };
}

const toToggles = (rows: { id: string; enabled: boolean }[]): SubscriberToggles =>
  new Map(rows.map((r) => [r.id, r.enabled]));

export async function loadAgentConfig(d1: D1Database, userId: string): Promise<AgentConfig> {
  return toConfig((await configQuery(d1, userId))[0]);
}

export async function saveAgentConfig(d1: D1Database, userId: string, config: AgentConfig): Promise<void> {
  const stored: AgentConfigPatch = Object.fromEntries(
    Object.entries(config).filter(([key, value]) => value !== (DEFAULT_AGENT_CONFIG as Record<string, unknown>)[key]),
  );
  await database(d1)
    .insert(agentSettings)
    .values({ userId, config: stored })
    .onConflictDoUpdate({ target: agentSettings.userId, set: { config: stored, updatedAt: new Date().toISOString() } });
}

export async function loadSubscriberToggles(d1: D1Database, userId: string): Promise<SubscriberToggles> {
  return toToggles(await togglesQuery(d1, userId));
}

export async function saveToggle(d1: D1Database, userId: string, subscriberId: string, enabled: boolean) {
  await database(d1)
    .insert(subscriberSettings)
    .values({ userId, subscriberId, enabled })
    .onConflictDoUpdate({ target: [subscriberSettings.userId, subscriberSettings.subscriberId], set: { enabled } });
}

/** What a turn starts from, in one D1 round trip. */
export interface TurnSettingsRead {
  config: AgentConfig;
  toggles: SubscriberToggles;
  mcpServers: McpServerRow[];
  /** The conversation's model (PATCH model), if set. */
  conversationModel?: ModelRef;
  /** The user's default model (PUT /api/models/default), if set. */
  defaultModel?: ModelRef;
  /** The user's providers, keys still sealed (durable-objects/conversation/turn/turn-model.ts opens the one it needs). */
  providers: ProviderRow[];
  /** The user's approval rules (d1/tool-approvals.ts); a tool without one has its default. */
  approvals: ApprovalRule[];
  /** The account's status (a disabled or pending account starts no turn) and an admin's quota for it. */
  account: { status: string; quotaOverride: QuotaOverride };
  /** The user's web tools: switches and their own search provider (web-settings.ts). */
  web: UserWeb;
  /** What the conversation starts from: the user's instructions, its project and the project's files (projects.ts). */
  context: TurnContextRead;
}

export interface TurnContextRead {
  instructions: Instructions;
  project?: ConversationProject;
  projectFiles: AttachmentColumns[];
  /** The memories of its scope, newest first (memories.ts), whether or not memory is on. */
  memories: { id: string; text: string; projectId: string | null }[];
}

/**
 * What a turn starts from, in one D1 round trip: config, toggles, the enabled MCP servers (by name), and
 * the model choices (the conversation's, the user's default, the user's providers).
 */
export async function loadTurnSettings(
  d1: D1Database,
  userId: string,
  conversationId: string,
): Promise<TurnSettingsRead> {
  return readTurnSettings(await database(d1).batch(turnSettingsQueries(d1, userId, conversationId)));
}

/** What a conversation's object reads of its user at once (loadTurnStart). */
export interface TurnStartRead {
  settings: TurnSettingsRead;
  /** The keys (credentialKey) of the credentials asked about that are still live. */
  live: Set<string>;
  /** When the first of those live sessions expires (ISO), if any is a session. */
  expires?: string;
}

/**
 * A conversation's turn settings and, in the same round trip, which of its sockets' credentials are
 * still live (the check every frame makes before it is acted on), registered as copied by that
 * conversation's object under `epoch` (live-conversations.ts): one D1 call before a turn's model request.
 */
export async function loadTurnStart(
  d1: D1Database,
  userId: string,
  conversationId: string,
  credentials: readonly Credential[],
  epoch: string,
): Promise<TurnStartRead> {
  const db = database(d1);
  const settings = turnSettingsQueries(d1, userId, conversationId);
  const rows = await db.batch([
    registerLiveQuery(d1, userId, conversationId, epoch),
    ...settings,
    ...liveCredentialQueries(db, credentials),
  ]);
  // The batch's results in its order: the registration, the settings, then the credentials' two queries.
  const [sessionRows, tokenRows] = rows.slice(1 + settings.length) as [
    { hash: string; expiresAt: string }[],
    { hash: string }[],
  ];
  const expires = firstExpiry(sessionRows);
  return {
    settings: readTurnSettings(rows.slice(1, 1 + settings.length) as unknown as TurnSettingsRows),
    live: liveKeys(sessionRows, tokenRows),
    ...(expires ? { expires } : {}),
  };
}

function turnSettingsQueries(d1: D1Database, userId: string, conversationId: string) {
  return [
    configQuery(d1, userId),
    togglesQuery(d1, userId),
    enabledMcpServersQuery(d1, userId),
    conversationModelQuery(d1, userId, conversationId),
    providersQuery(d1, userId),
    approvalRulesQuery(d1, userId),
    database(d1).select({ status: users.status }).from(users).where(eq(users.id, userId)).limit(1),
    database(d1).select({ limits: userQuotas.limits }).from(userQuotas).where(eq(userQuotas.userId, userId)).limit(1),
    webSettingsQuery(d1, userId),
    instructionsQuery(d1, userId),
    conversationProjectQuery(d1, userId, conversationId),
    conversationProjectFilesQuery(d1, userId, conversationId),
    memoriesInScopeQuery(d1, userId, conversationId),
  ] as const;
}

type TurnSettingsRows = readonly [
  Awaited<ReturnType<typeof configQuery>>,
  Awaited<ReturnType<typeof togglesQuery>>,
  Awaited<ReturnType<typeof enabledMcpServersQuery>>,
  Awaited<ReturnType<typeof conversationModelQuery>>,
  Awaited<ReturnType<typeof providersQuery>>,
  Awaited<ReturnType<typeof approvalRulesQuery>>,
  { status: string }[],
  { limits: unknown }[],
  Awaited<ReturnType<typeof webSettingsQuery>>,
  Awaited<ReturnType<typeof instructionsQuery>>,
  Awaited<ReturnType<typeof conversationProjectQuery>>,
  Awaited<ReturnType<typeof conversationProjectFilesQuery>>,
  Awaited<ReturnType<typeof memoriesInScopeQuery>>,
];

function readTurnSettings([
  config,
  toggles,
  mcpServers,
  conversation,
  providers,
  approvals,
  account,
  quota,
  web,
  instructions,
  project,
  projectFiles,
  memories,
]: TurnSettingsRows): TurnSettingsRead {
  const conversationModel = parseModelRef(conversation[0]?.model);
  const defaultModel = parseModelRef(config[0]?.defaultModel);
  return {
    config: toConfig(config[0]),
    toggles: toToggles(toggles),
    mcpServers,
    ...(conversationModel ? { conversationModel } : {}),
    ...(defaultModel ? { defaultModel } : {}),
    providers,
    approvals,
    account: {
      status: account[0]?.status ?? "active",
      quotaOverride: overrideOf(quota[0]?.limits),
    },
    web: userWebOf(web[0]),
    context: {
      instructions: instructionsOf(instructions[0]),
      ...(project[0] ? { project: project[0] } : {}),
      projectFiles,
      memories,
    },
  };
}
