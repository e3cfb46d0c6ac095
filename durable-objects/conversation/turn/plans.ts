// A turn's plan as the host builds it: the user's settings read from D1 (once per turn, possibly read
// ahead while the socket's credential is checked), the model that answers (turn-model.ts), the MCP
// servers connected, and the host of its subagents. What is plain logic (the config a frame or a
// parent sets, a subagent's subset of tools) is agent/turn/plan.ts.
import type { LlmSettings } from "../../../agent/llm/config";
import type { Notifier } from "../../../agent/notifications/notifier";
import { BUILTIN_TOOLS } from "../../../agent/tools";
import { DELEGATE, delegateTool } from "../../../agent/tools/delegate";
import { offeredTools } from "../../../agent/tools/files";
import { type McpToolbox, openMcpToolbox } from "../../../agent/tools/mcp";
import { MEMORY, withMemoryTool } from "../../../agent/tools/memory";
import { withWebTools } from "../../../agent/tools/web";
import {
  subagentConfig,
  subagentServers,
  subagentTools,
  type TurnChoices,
  userConfig,
  withoutTools,
} from "../../../agent/turn/plan";
import { limitsFor } from "../../../core/quota-rules";
import type { McpServerRow } from "../../../d1/mcp-servers";
import { defaultsOf } from "../../../d1/projects";
import { ownerShard } from "../../../d1/shards";
import { loadTurnSettings } from "../../../d1/user-settings";
import { type AgentConfig, type ApprovalRule, DEFAULT_PROVIDER_ID, type ModelRef } from "../../../protocol";
import { memoryOn } from "../projects/conversation-context";
import type { SocketMeta } from "../sockets/socket-hub";
import { type WebPlan, webPlan } from "../web/web-plan";
import type { TurnPlan } from "./running-turn";
import { type ChildRegistry, type ChildRequest, ConversationSubagents, MAX_DEPTH, type ParentLink } from "./subagents";
import type { ToggleCache } from "./toggle-cache";
import type { HostIO } from "./turn-io";
import type { TurnMarkerStore, TurnRecord } from "./turn-marker";
import { modelRef, turnModel } from "./turn-model";
import { D1UsageMeter } from "./usage-meter";

/** What a turn starts from (user-settings.ts loadTurnSettings), possibly read with the frame's check (user-cache.ts). */
export type TurnSettings = Awaited<ReturnType<typeof loadTurnSettings>>;

interface Settings {
  saved: AgentConfig;
  /** The tools the conversation's project switches off. */
  toolsOff: readonly string[];
  mcpServers: McpServerRow[];
  llm: LlmSettings;
  approvals: ApprovalRule[];
  web: WebPlan;
  memory?: { projectId: string | null };
}

export class TurnPlans {
  constructor(
    private readonly env: Env,
    private readonly meta: SocketMeta,
    private readonly io: {
      toggles: ToggleCache;
      notifier: Notifier;
      marker: TurnMarkerStore;
      user: HostIO["user"];
      /** The path the turn reads: whether it has files decides the file tools. */
      messages: HostIO["messages"];
    },
  ) {}

  /** The settings a turn will start from, read from D1 now: a turn without a frame's (a chat frame's come from user-cache.ts). */
  load(): Promise<TurnSettings> {
    return loadTurnSettings(ownerShard(this.env, this.meta), this.meta.userId, this.meta.conversationId);
  }

  /** The context window of the model a turn would use now (how much of a document its request may hold). */
  async window(prefetched: Promise<TurnSettings>): Promise<number> {
    return (await turnModel(this.env, await prefetched)).contextWindow;
  }

  /** `resumed`: the record of a turn cut short by a restart, whose model and limits it keeps. */
  async user(
    choices: TurnChoices,
    signal: AbortSignal,
    prefetched?: Promise<TurnSettings>,
    resumed?: TurnRecord,
  ): Promise<TurnPlan> {
    const { saved, toolsOff, mcpServers, llm, approvals, web, memory } = await this.settings(
      prefetched,
      resumed?.model,
    );
    const mcp = await this.openMcp(mcpServers, signal);
    const offered = offeredTools([...BUILTIN_TOOLS, delegateTool, ...mcp.tools], this.io.messages());
    return {
      config: resumed?.config ?? userConfig(saved, choices),
      tools: withoutTools(withMemoryTool(withWebTools(offered, web), memory !== undefined), toolsOff),
      web,
      ...(memory ? { memory } : {}),
      subagents: new ConversationSubagents(this.env, this.meta, 0, undefined, modelRef(llm), this.children()),
      mcp,
      llm,
      approvals,
    };
  }

  /** A subagent's plan: its limits from the parent, its tools a subset, no questions to the user. */
  async subagent(
    request: ChildRequest,
    parent: ParentLink,
    signal: AbortSignal,
    resumed?: TurnRecord,
  ): Promise<TurnPlan> {
    const { saved, toolsOff, mcpServers, llm, approvals, web } = await this.settings(
      undefined,
      resumed?.model ?? request.model,
    );
    const mcp = await this.openMcp(subagentServers(mcpServers, request.tools), signal);
    const canDelegate = request.depth < MAX_DEPTH;
    const tools = subagentTools(
      withoutTools(
        withWebTools(
          offeredTools([...BUILTIN_TOOLS, ...(canDelegate ? [delegateTool] : []), ...mcp.tools], this.io.messages()),
          web,
        ),
        toolsOff,
      ),
      request.tools,
    ).filter((tool) => tool.name !== MEMORY); // what the user tells their agent is remembered there, not by a subagent
    const host = { link: parent, podName: request.podName };
    return {
      config: resumed?.config ?? subagentConfig(saved, request.limits),
      tools,
      subagents: tools.some((t) => t.name === DELEGATE)
        ? new ConversationSubagents(this.env, this.meta, request.depth, host, modelRef(llm), this.children())
        : undefined,
      web,
      mcp,
      llm,
      // The user's rules hold in a subagent too; with nobody to ask there, a call that asks does not run.
      approvals,
    };
  }

  /**
   * The user's saved config, subscriber toggles, MCP servers and the turn's model, read once per turn (one
   * D1 round trip). `model`: the model to use instead of the conversation's (a subagent takes its parent's).
   */
  private async settings(prefetched?: Promise<TurnSettings>, model?: ModelRef): Promise<Settings> {
    const loaded = await (prefetched ?? this.load());
    this.io.toggles.set(loaded.toggles);
    const chosen = await turnModel(this.env, model ? { ...loaded, conversationModel: model } : loaded);
    // The operator's model counts against the user's quota; the user's own providers never do.
    const llm =
      chosen.providerId === DEFAULT_PROVIDER_ID
        ? {
            ...chosen,
            meter: new D1UsageMeter(
              ownerShard(this.env, this.meta),
              this.meta.userId,
              limitsFor(this.env, loaded.account.quotaOverride),
              chosen,
              this.io.notifier,
            ),
          }
        : chosen;
    const web = await webPlan(this.env, this.meta.userId, loaded);
    const memory = memoryOn(this.env, loaded.context) ? { projectId: loaded.context.project?.id ?? null } : undefined;
    // A project's conversations run with its limits and approach, its tools and its MCP servers.
    const defaults = defaultsOf(loaded.context.project?.defaults);
    const on = defaults.mcp_servers;
    return {
      saved: { ...loaded.config, ...defaults.agent },
      toolsOff: defaults.tools_off,
      mcpServers: on ? loaded.mcpServers.filter((server) => on.includes(server.id)) : loaded.mcpServers,
      llm,
      approvals: loaded.approvals,
      web,
      memory,
    };
  }

  /** The MCP servers' tools for this turn; a server that is down is reported on the bus (a System message). */
  private async openMcp(rows: McpServerRow[], signal: AbortSignal): Promise<McpToolbox> {
    // A server's OAuth tokens may be refreshed during this turn: the next one reads them afresh.
    if (rows.some((row) => row.authType === "oauth")) this.io.user.changed();
    // The MCP servers' OAuth tokens are refreshed in the owner's shard (d1/mcp-oauth.ts).
    const mcp = await openMcpToolbox(rows, { ...this.env, ownerDb: ownerShard(this.env, this.meta) }, signal);
    // A Stop while connecting is not the servers' fault.
    if (signal.aborted) return mcp;
    for (const { server, error, partial } of mcp.unavailable)
      this.io.notifier.emit({
        type: "mcp.unavailable",
        severity: "warning",
        source: "MCP Connector",
        payload: { server, error, partial: partial ?? false },
      });
    return mcp;
  }

  /** Where delegate calls record the subagents they start, for a resumed turn to re-attach to. */
  private children(): ChildRegistry {
    return {
      started: (callId, child) => this.io.marker.child(callId, child),
      of: (callId) => this.io.marker.current?.children[callId],
    };
  }
}
