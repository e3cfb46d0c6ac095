// The Hono app: every /api/* route, mounted in one place. Static client assets are served by the
// assets binding before the Worker runs (wrangler.toml), so only /api/* reaches this app.
import { Hono } from "hono";
import { except } from "hono/combine";
import { secureHeaders } from "hono/secure-headers";
import { llmSettings, publicModelInfo } from "../agent/llm/config";
import { signupPolicy } from "./auth/signup-policy";
import { errorBody, handleError } from "./errors";
import {
  type AppEnv,
  identify,
  isWebSocketUpgrade,
  requireAdmin,
  requireSession,
  requireUser,
  sessionOnlyWrites,
} from "./middleware/identity";
import { changesUser } from "./middleware/user-changes";
import { accountRoutes } from "./routes/account";
import { accountDataRoutes } from "./routes/account-data";
import { accountDeletionRoutes } from "./routes/account-deletion";
import { adminRoutes } from "./routes/admin";
import { authRoutes, meRoutes } from "./routes/auth";
import { conversationRoutes } from "./routes/conversations";
import { fileRoutes } from "./routes/files";
import { instructionsRoutes } from "./routes/instructions";
import { knowledgeRoutes, workflowRoutes } from "./routes/library-routes";
import { mcpServerRoutes } from "./routes/mcp-servers";
import { memoryRoutes } from "./routes/memories";
import { noteRoutes } from "./routes/notes";
import { oauthClientRoutes } from "./routes/oauth-client";
import { identityAccountRoutes, oidcAuthRoutes } from "./routes/oidc";
import { passkeyAccountRoutes, passkeyAuthRoutes } from "./routes/passkeys";
import { projectRoutes } from "./routes/projects";
import { modelRoutes, providerRoutes } from "./routes/providers";
import { pushRoutes } from "./routes/push";
import { scheduleRoutes, timeZoneRoutes } from "./routes/schedules";
import { searchRoutes } from "./routes/search";
import { settingsRoutes } from "./routes/settings";
import { conversationShareRoutes, sharedRoutes, shareRoutes } from "./routes/shares";
import { subscriberRoutes } from "./routes/subscribers";
import { taskRoutes } from "./routes/tasks";
import { tokenRoutes } from "./routes/tokens";
import { toolApprovalRoutes } from "./routes/tool-approvals";
import { usageRoutes } from "./routes/usage";
import { webSettingsRoutes } from "./routes/web-settings";

export const app = new Hono<AppEnv>().basePath("/api");

// nosniff and friends on every API response, errors included (the HTML's are in client/public/_headers).
// Not on a WebSocket upgrade: its 101 comes from the Durable Object with immutable headers and no body.
app.use(except(isWebSocketUpgrade, secureHeaders()));
app.onError(handleError);
app.notFound((c) => c.json(errorBody("not_found", `No route for ${c.req.method} ${c.req.path}`), 404));

app.get("/health", (c) =>
  c.json({ ok: true, model: publicModelInfo(llmSettings(c.env)), signup: signupPolicy(c.env, c.req.url) }),
);

app.route("/auth", authRoutes);
app.route("/auth/passkey", passkeyAuthRoutes);
app.route("/auth/oidc", oidcAuthRoutes);
// A share link's page needs no account: mounted before identity, which a bad token would refuse
// (its fork runs identity itself).
app.route("/shared", sharedRoutes);
// The Worker's OAuth client metadata document: authorization servers fetch it without an account.
app.route("/oauth", oauthClientRoutes);
app.use(identify);
app.route("/me", meRoutes);
// The operator's surface: a 404 for anyone but an admin (requireAdmin), its writes from a session only.
app.use("/admin/*", requireAdmin, sessionOnlyWrites);
app.route("/admin", adminRoutes);
app.use("/usage", requireUser);
app.route("/usage", usageRoutes);
// What guards the user's safety is changed from a signed-in session only, never with an API token
// (requireSession, sessionOnlyWrites): tokens, approval rules, MCP servers, providers, shares.
// The account itself (password, sessions, passkeys, providers, deletion, export): a session only.
app.use("/account/*", requireSession);
app.use("/account", requireSession);
app.route("/account", accountRoutes);
app.route("/account/passkeys", passkeyAccountRoutes);
app.route("/account/identities", identityAccountRoutes);
app.route("/account", accountDataRoutes);
app.route("/account", accountDeletionRoutes);
app.use("/tokens/*", requireSession, changesUser("credentials"));
app.route("/tokens", tokenRoutes);
app.use("/conversations/*", requireUser);
app.use("/conversations/:id/shares", sessionOnlyWrites);
// A conversation's model (PATCH) is part of what its object copies.
app.on("PATCH", "/conversations/:id", changesUser("settings"));
app.route("/conversations", conversationRoutes);
app.route("/conversations", conversationShareRoutes);
app.use("/shares/*", requireUser, sessionOnlyWrites);
app.route("/shares", shareRoutes);
app.use("/settings/*", requireUser, changesUser("settings"));
app.use("/settings/web", sessionOnlyWrites);
app.route("/settings/web", webSettingsRoutes);
app.route("/settings/instructions", instructionsRoutes);
app.route("/settings", settingsRoutes);
app.route("/settings", timeZoneRoutes);
// What a conversation starts from (its context item, read with the turn's settings) is part of what its object copies.
app.use("/projects/*", requireUser, changesUser("settings"));
app.route("/projects", projectRoutes);
app.use("/memories/*", requireUser, changesUser("settings"));
app.route("/memories", memoryRoutes);
app.use("/files/*", requireUser);
app.route("/files", fileRoutes);
app.use("/notes/*", requireUser);
app.route("/notes", noteRoutes);
app.use("/tasks/*", requireUser);
app.route("/tasks", taskRoutes);
app.use("/subscribers/*", requireUser, changesUser("settings"));
app.route("/subscribers", subscriberRoutes);
app.use("/knowledge/*", requireUser);
app.route("/knowledge", knowledgeRoutes);
app.use("/workflows/*", requireUser);
app.route("/workflows", workflowRoutes);
app.use("/mcp-servers/*", requireUser, sessionOnlyWrites, changesUser("settings"));
app.route("/mcp-servers", mcpServerRoutes);
app.use("/tool-approvals/*", requireUser, sessionOnlyWrites, changesUser("settings"));
app.route("/tool-approvals", toolApprovalRoutes);
app.use("/providers/*", requireUser, sessionOnlyWrites, changesUser("settings"));
app.route("/providers", providerRoutes);
app.use("/models/*", requireUser, changesUser("settings"));
app.route("/models", modelRoutes);
app.use("/schedules/*", requireUser);
app.route("/schedules", scheduleRoutes);
app.use("/push/*", requireUser, sessionOnlyWrites);
app.route("/push", pushRoutes);
app.use("/search/*", requireUser);
app.route("/search", searchRoutes);
