// D1 schema (drizzle). Migrations in migrations/ are generated from this file by `npm run db:generate`.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  username: text("username").notNull().unique(),
  /** PBKDF2 (worker/auth/crypto.ts); `""` for an account without a password (a passkey or a provider signs it in). */
  passwordHash: text("password_hash").notNull(),
  createdAt: text("created_at").notNull().default(now),
  /** `admin` or `user` (protocol/admin.ts); the first account of an installation is an admin. */
  role: text("role").notNull().default("user"),
  /** `active`, `pending` (waiting for approval) or `disabled` (by an admin). */
  status: text("status").notNull().default("active"),
  /** The last request, written at most once an hour (d1/accounts.ts). */
  lastActiveAt: text("last_active_at"),
});

/** A session row is keyed by the SHA-256 of the cookie's token: a leaked table opens no session. */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull().default(now),
    expiresAt: text("expires_at").notNull(),
    /** What Settings → Account names the session by (the hash never leaves the server). */
    id: text("id"),
    /** The browser's User-Agent, the address and the place (Cloudflare's city and country) it signed in from. */
    userAgent: text("user_agent"),
    address: text("address"),
    place: text("place"),
    /** `password`, `passkey`, `oidc:<provider>`, `reset`, `signup`. */
    method: text("method"),
    /** The last request, written at most every five minutes (worker/auth/sessions.ts). */
    lastUsedAt: text("last_used_at"),
  },
  (t) => [index("sessions_user").on(t.userId), uniqueIndex("sessions_id").on(t.id)],
);

export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: text("created_at").notNull().default(now),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [index("api_tokens_user").on(t.userId)],
);

/**
 * Browsers a user has signed in from (OWASP's "device cookie"): keyed by the SHA-256 of the cookie's
 * token. Sign-in attempts from such a browser are throttled on their own, so failures from anywhere
 * else can never refuse the right password there.
 */
export const loginDevices = sqliteTable(
  "login_devices",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("login_devices_expires").on(t.expiresAt)],
);

export const agentSettings = sqliteTable("agent_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  config: text("config", { mode: "json" }).notNull(),
  updatedAt: text("updated_at").notNull().default(now),
  /** The user's default model (a protocol ModelRef as JSON); null: the operator's. */
  defaultModel: text("default_model"),
});

/** A user's custom instructions and memory switch (docs/protocol.md "Projects, instructions and memory"). */
export const userInstructions = sqliteTable("user_instructions", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  about: text("about").notNull().default(""),
  style: text("style").notNull().default(""),
  memory: integer("memory", { mode: "boolean" }).notNull().default(true),
  updatedAt: text("updated_at").notNull().default(now),
});

/** A user's projects: a name, instructions, a memory switch and a default model; files and conversations point here. */
export const projects = sqliteTable(
  "projects",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    instructions: text("instructions").notNull().default(""),
    memory: integer("memory", { mode: "boolean" }).notNull().default(true),
    /** A protocol ModelRef as JSON; null: the user's default. */
    model: text("model"),
    /** protocol ProjectDefaults as JSON: limits and approach, tools off, MCP servers on. */
    defaults: text("defaults", { mode: "json" }).notNull().default("{}"),
    /** protocol ProjectIncludes as JSON: the knowledge entries and note folders its conversations start with. */
    includes: text("includes", { mode: "json" }).notNull().default("{}"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("projects_user").on(t.userId, t.updatedAt)],
);

/** What the agent remembers of a user (the memory tool, or written in Settings), the user's or a project's. */
export const memories = sqliteTable(
  "memories",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Null: the user's, in every conversation; else only that project's. */
    projectId: text("project_id"),
    text: text("text").notNull(),
    /** Where it came from: the conversation and its message; null when the user wrote it. */
    conversationId: text("conversation_id"),
    seq: integer("seq"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("memories_user").on(t.userId, t.projectId)],
);

/** A user's web tools (docs/protocol.md "The web"): the switches and their own search provider, key sealed. */
export const webSettings = sqliteTable("web_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  fetch: integer("fetch", { mode: "boolean" }).notNull().default(true),
  search: integer("search", { mode: "boolean" }).notNull().default(true),
  /** The user's own provider (protocol SearchProvider); null: the operator's. */
  provider: text("provider"),
  url: text("url"),
  sealedKey: text("sealed_key"),
  updatedAt: text("updated_at").notNull().default(now),
});

export const subscriberSettings = sqliteTable(
  "subscriber_settings",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subscriberId: text("subscriber_id").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.subscriberId] })],
);

export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** Set for a subagent's child conversation: the conversation that delegated to it. */
    parentId: text("parent_id"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
    /** The start of the latest user or agent text, for the conversation list. */
    preview: text("preview").notNull().default(""),
    /** Who named it (d1/titles.ts): a user's title is never replaced, a model's title replaces the first message's once. */
    titleSource: text("title_source", { enum: ["default", "first_message", "model", "user"] })
      .notNull()
      .default("default"),
    /** Kept at the top of the user's sidebar. */
    pinned: integer("pinned", { mode: "boolean" }).notNull().default(false),
    /** The model its turns use (a protocol ModelRef as JSON); null: the user's default. */
    model: text("model"),
    /** The project it belongs to (d1/projects.ts); null: none. */
    projectId: text("project_id"),
  },
  (t) => [
    index("conversations_user_updated").on(t.userId, t.updatedAt),
    index("conversations_project").on(t.userId, t.projectId),
  ],
);

/**
 * Legacy: where messages lived before each conversation's log moved into its own object's SQLite.
 * The object moves a conversation's rows out of here the first time it opens (legacy-import.ts);
 * nothing writes here any more.
 */
export const messages = sqliteTable(
  "messages",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    id: text("id").notNull(),
    role: text("role", { enum: ["user", "agent", "tool", "system"] }).notNull(),
    createdAt: text("created_at").notNull(),
    payload: text("payload").notNull(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.seq] })],
);

/**
 * The search index of user and agent text (docs/protocol.md `GET /api/search`), written by each
 * conversation's object from its outbox; `message_search_fts` (FTS5, kept by triggers) indexes `text`.
 * A row per message, keyed by (conversation, seq), so a repeated flush inserts nothing twice.
 */
export const messageSearch = sqliteTable(
  "message_search",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    seq: integer("seq").notNull(),
    role: text("role", { enum: ["user", "agent"] }).notNull(),
    /** What the text is, for ranking (conversation-search.ts): the user's words, an answer, or a step's narration. */
    kind: text("kind", { enum: ["user", "answer", "step"] })
      .notNull()
      .default("answer"),
    text: text("text").notNull(),
  },
  (t) => [
    uniqueIndex("message_search_conversation_seq").on(t.conversationId, t.seq),
    index("message_search_user").on(t.userId),
  ],
);

/** The user's vault of notes; `notes_fts` (an FTS5 table kept by triggers) indexes them. */
export const notes = sqliteTable(
  "notes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    content: text("content").notNull(),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [uniqueIndex("notes_user_path").on(t.userId, t.path)],
);

export const tasks = sqliteTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    status: text("status", { enum: ["open", "in_progress", "done"] })
      .notNull()
      .default("open"),
    details: text("details").notNull().default(""),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("tasks_user_status").on(t.userId, t.status)],
);

/** A per-user library of titled texts keyed by slug: knowledge entries and workflows share this shape. */
const libraryTable = (name: string) =>
  sqliteTable(
    name,
    {
      userId: text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      slug: text("slug").notNull(),
      title: text("title").notNull(),
      body: text("body").notNull(),
      createdAt: text("created_at").notNull().default(now),
      updatedAt: text("updated_at").notNull().default(now),
    },
    (t) => [primaryKey({ columns: [t.userId, t.slug] })],
  );

/** The user's knowledge entries (`#slug` in a message attaches one). Body up to 20,000 characters. */
export const knowledge = libraryTable("knowledge");

/** The user's saved workflows (`/slug` at a message's start runs one); `body` is the workflow's prompt. */
export const workflows = libraryTable("workflows");

/** One row per user whose library got the default entries, so a deleted default never comes back. */
export const librarySeeded = sqliteTable("library_seeded", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  seededAt: text("seeded_at").notNull().default(now),
});

/**
 * The user's own MCP servers (Settings → Tools). The secret (a bearer token or a custom header's
 * value) is sealed with AES-GCM under a key derived from the SECRETS_KEY Worker secret, bound to its
 * user and row (core/secret-box.ts); it is never returned. `tools` is what the last connection test
 * found (JSON), for Settings; a turn lists the server's tools afresh.
 */
export const mcpServers = sqliteTable(
  "mcp_servers",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    authType: text("auth_type", { enum: ["none", "bearer", "header", "oauth"] })
      .notNull()
      .default("none"),
    authHeader: text("auth_header"),
    sealedSecret: text("sealed_secret"),
    // OAuth (d1/mcp-oauth.ts): a client id the user entered (its secret is sealed_secret); the rest sealed,
    // bound to the row and the column: the registration and discovery, the tokens, the pending flow.
    oauthClientId: text("oauth_client_id"),
    sealedOauthClient: text("sealed_oauth_client"),
    sealedOauthTokens: text("sealed_oauth_tokens"),
    sealedOauthPending: text("sealed_oauth_pending"),
    oauthStatus: text("oauth_status", { enum: ["needs_authorization", "connected", "expired"] }),
    oauthExpiresAt: text("oauth_expires_at"),
    oauthScopes: text("oauth_scopes"),
    /** Scopes a call was refused for (403 insufficient_scope) that the grant lacks: Reconnect asks for them. */
    oauthNeededScopes: text("oauth_needed_scopes"),
    /** `<until ISO>#<nonce>` while one request refreshes the tokens; the others wait for its result. */
    oauthRefreshLease: text("oauth_refresh_lease"),
    disabledTools: text("disabled_tools").notNull().default("[]"),
    tools: text("tools").notNull().default("[]"),
    checkedAt: text("checked_at"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [uniqueIndex("mcp_servers_user_name").on(t.userId, t.name)],
);

/**
 * The user's own model providers (Settings → Models): OpenAI-compatible endpoints. The API key is
 * sealed like an MCP secret (core/secret-box.ts, bound to `providers:<user>:<id>`) and never returned;
 * `models` is the user's list of protocol ProviderModel (JSON).
 */
export const providers = sqliteTable(
  "providers",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    baseUrl: text("base_url").notNull(),
    style: text("style", { enum: ["chat", "responses"] })
      .notNull()
      .default("chat"),
    sealedKey: text("sealed_key"),
    models: text("models").notNull().default("[]"),
    checkedAt: text("checked_at"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("providers_user").on(t.userId)],
);

/**
 * Share links (docs/protocol.md "Share links"): a read-only snapshot of a conversation's path up to
 * `leaf_seq`. The messages stay in the conversation's object and are read from there on each view, so
 * deleting the conversation (cascade) or the row (revoking) ends the link at once.
 */
export const shares = sqliteTable(
  "shares",
  {
    /** 144 random bits, base64url: the link is the only secret. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    leafSeq: integer("leaf_seq").notNull(),
    includeSystem: integer("include_system", { mode: "boolean" }).notNull(),
    includeTools: integer("include_tools", { mode: "boolean" }).notNull(),
    includeFiles: integer("include_files", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [index("shares_user").on(t.userId, t.createdAt), index("shares_conversation").on(t.conversationId)],
);

/**
 * Files users attached (protocol.md "Files"): the bytes are in R2 at `files/<user>/<id>`, the text the
 * model reads (a PDF's pages, a text's text) beside them at `files/<user>/<id>.text` (d1/files.ts). `conversation_id` is null until a
 * message carries the file; deleting the conversation deletes its files (d1/files.ts, with their objects).
 */
export const files = sqliteTable(
  "files",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id"),
    /** Set for a project's file (d1/projects.ts): every conversation of the project reads it. */
    projectId: text("project_id"),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    /** `image`, `pdf` or `text` (protocol/files.ts FileKind). */
    kind: text("kind").notNull(),
    size: integer("size").notNull(),
    pages: integer("pages"),
    lines: integer("lines"),
    width: integer("width"),
    height: integer("height"),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [
    index("files_user").on(t.userId, t.createdAt),
    index("files_conversation").on(t.conversationId),
    index("files_project").on(t.projectId),
  ],
);

/**
 * Fixed-window counters of the generic rate limiter (d1/rate-limits.ts), one row per key such as
 * `share_create:<user id>`. A row whose window has ended is reset by its next hit or pruned by another's.
 */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    /** When the window ends (ms since the epoch). */
    resetAt: integer("reset_at").notNull(),
  },
  (t) => [index("rate_limits_reset").on(t.resetAt)],
);

/**
 * Built-in agent writes done under an idempotency key (d1/tool-effects.ts): a row is inserted in the
 * same batch as the write, so a call re-run after a restart finds its key and is not done again.
 * `target` is what the write touched (a task id or a note path), to answer the repeat with.
 */
/** Approval rules (issue 30): per tool, "ask" before it runs or "allow" it; no row means the tool's default. */
export const toolApprovals = sqliteTable(
  "tool_approvals",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** A built-in tool's name, or `mcp:<server id>:<tool>` (protocol/approvals.ts). */
    tool: text("tool").notNull(),
    mode: text("mode", { enum: ["ask", "allow"] }).notNull(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tool] })],
);

export const toolEffects = sqliteTable(
  "tool_effects",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    target: text("target").notNull(),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * Scheduled runs (d1/schedules.ts, docs/protocol.md "Schedules"): a message posted into one of the
 * user's conversations at `at` (kind once) or on `cron` (read in `time_zone`). `next_run_at` is the
 * occurrence the conversation's object arms its alarm for; null when paused or a one-off has run.
 */
export const schedules = sqliteTable(
  "schedules",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    text: text("text").notNull(),
    kind: text("kind", { enum: ["once", "cron"] }).notNull(),
    at: text("at"),
    cron: text("cron"),
    timeZone: text("time_zone").notNull(),
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
    nextRunAt: text("next_run_at"),
    lastRunAt: text("last_run_at"),
    lastStatus: text("last_status", { enum: ["queued", "started", "skipped", "failed"] }),
    lastError: text("last_error"),
    /** Set for a project's schedule: each run goes into a new conversation of the project (conversation_id follows). */
    projectId: text("project_id"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("schedules_user").on(t.userId), index("schedules_conversation_next").on(t.conversationId, t.nextRunAt)],
);

/** The user's IANA time zone, as their browser reports it: the default of a schedule made without one. */
export const userTimeZones = sqliteTable("user_time_zones", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  timeZone: text("time_zone").notNull(),
  updatedAt: text("updated_at").notNull().default(now),
});

/**
 * The conversations whose object holds a copy of what it read of its user (settings, credentials:
 * durable-objects/conversation/user-cache.ts) while a socket is open. A write to what it copied tells
 * each of them (durable-objects/user-changes.ts). `epoch` names one fill of the copy, so a row is
 * pruned only if no newer fill registered since it was read.
 */
export const liveConversations = sqliteTable(
  "live_conversations",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").notNull(),
    epoch: text("epoch").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.conversationId] })],
);

/**
 * A browser's web push subscription (docs/protocol.md "Finish notifications"): where the Worker sends a
 * notification when one of the user's turns ends with no tab of theirs open on it. An endpoint is one
 * browser's, so it belongs to one user at a time. Made under a session, it goes with that session: a
 * device signed out (logout deletes the session) gets no more notifications of the user's.
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionHash: text("session_hash")
      .notNull()
      .references(() => sessions.tokenHash, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** Show the conversation's title and the answer's text on this device (default: neither). */
    showContent: integer("show_content", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [index("push_subscriptions_user").on(t.userId)],
);

/**
 * What each user has spent of the operator's models in the current UTC day and month (d1/usage.ts): one
 * row per user, so a model call is admitted and reserved by one atomic statement. `*_warned` is the
 * highest warning (a percent) given in that period.
 */
export const usageTotals = sqliteTable("usage_totals", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  day: text("day").notNull(),
  dayTokens: integer("day_tokens").notNull().default(0),
  dayCost: real("day_cost").notNull().default(0),
  dayWarned: integer("day_warned").notNull().default(0),
  month: text("month").notNull(),
  monthTokens: integer("month_tokens").notNull().default(0),
  monthCost: real("month_cost").notNull().default(0),
  monthWarned: integer("month_warned").notNull().default(0),
});

/** Use of the operator's models per user, UTC day and model: the usage pages' charts. */
export const usageDaily = sqliteTable(
  "usage_daily",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    cost: real("cost").notNull().default(0),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.model] }), index("usage_daily_day").on(t.day)],
);

/** An admin's limits for one user over the defaults (protocol QuotaOverride as JSON). */
export const userQuotas = sqliteTable("user_quotas", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  limits: text("limits", { mode: "json" }).notNull(),
});

/** Single-use invite links (SIGNUP=invite), keyed by the SHA-256 of their token. */
export const invites = sqliteTable(
  "invites",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    note: text("note").notNull().default(""),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull().default(now),
    expiresAt: text("expires_at").notNull(),
    usedBy: text("used_by"),
    usedAt: text("used_at"),
  },
  (t) => [index("invites_created").on(t.createdAt)],
);

/** Every admin action: who (a username, kept if the account goes), what, whom, when. */
export const adminAudit = sqliteTable(
  "admin_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: text("at").notNull().default(now),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    target: text("target"),
    detail: text("detail", { mode: "json" }).notNull(),
  },
  (t) => [index("admin_audit_at").on(t.at)],
);

/** A user's passkeys (WebAuthn credentials): the public key, its signature counter, what the browser said of it. */
export const passkeys = sqliteTable(
  "passkeys",
  {
    /** The credential id, base64url, as the authenticator made it: unique across every account. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports").notNull().default("[]"),
    deviceType: text("device_type"),
    backedUp: integer("backed_up", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull().default(now),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [index("passkeys_user").on(t.userId)],
);

/**
 * One-time values a sign-in flow waits on: a WebAuthn challenge, an OpenID Connect flow's state (its
 * PKCE verifier and nonce in `data`), each single-use (taken with DELETE … RETURNING) and expiring.
 */
export const authChallenges = sqliteTable(
  "auth_challenges",
  {
    /** SHA-256 of the value the browser holds (a challenge id or the OIDC state). */
    id: text("id").primaryKey(),
    /** `passkey-register`, `passkey-signin`, `passkey-signup`, `passkey-confirm`, `oidc`. */
    purpose: text("purpose").notNull(),
    /** The signed-in user a flow belongs to (adding a passkey, linking a provider), else null. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    data: text("data", { mode: "json" }).notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("auth_challenges_expires").on(t.expiresAt)],
);

/** Identity providers' accounts linked to a user (OpenID Connect): one provider's subject signs in one user. */
export const linkedIdentities = sqliteTable(
  "linked_identities",
  {
    provider: text("provider").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** What the provider said of the account (email or name), to tell links apart in Settings. */
    label: text("label").notNull().default(""),
    createdAt: text("created_at").notNull().default(now),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index("linked_identities_user").on(t.userId)],
);

/** An admin's single-use link that sets a new password (a forgotten one): stored hashed, expiring. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull().default(now),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("password_resets_user").on(t.userId)],
);
