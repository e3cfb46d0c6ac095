// An archive's settings applied to the account (docs/protocol.md "Export and import"): the agent's
// settings, the notifications (a core one stays on), the time zone and the default model when it is one
// of the user's models. An archive can make a built-in tool ask first, never let one run without
// asking: what widens what runs unasked is set in Settings by the user alone. What is not applied is
// said, in words, in the import's answer.

import { findModel } from "../../agent/llm/catalog";
import { llmSettings } from "../../agent/llm/config";
import { findSubscriber } from "../../agent/notifications/subscribers";
import { BUILTIN_TOOLS } from "../../agent/tools";
import { delegateTool } from "../../agent/tools/delegate";
import { REQUEST_INPUT } from "../../agent/tools/request-input";
import { saveDefaultModel } from "../../d1/providers";
import { saveTimeZone } from "../../d1/schedules";
import { type Placement, shardDb } from "../../d1/shards";
import { saveApprovalRule } from "../../d1/tool-approvals";
import { loadAgentConfig, saveAgentConfig, saveToggle } from "../../d1/user-settings";
import { type ExportedSettings, isTimeZone, type ModelRef } from "../../protocol";
import { modelChoices } from "../routes/providers";

const APPROVABLE = new Set(
  [...BUILTIN_TOOLS, delegateTool].map((t) => t.name).filter((name) => name !== REQUEST_INPUT),
);

/** Applies `settings`; returns what was left out, in words. */
export async function applySettings(env: Env, owner: Placement, settings: ExportedSettings): Promise<string[]> {
  const { userId } = owner;
  const shard = shardDb(env, owner.shard);
  const leftOut: string[] = [];
  await saveAgentConfig(shard, userId, { ...(await loadAgentConfig(shard, userId)), ...settings.agent });
  for (const [id, enabled] of Object.entries(settings.subscribers)) {
    const subscriber = findSubscriber(id);
    // A subscriber this server does not have, or a core one (always on), is left as it is.
    if (subscriber && !(subscriber.config.core && !enabled)) await saveToggle(shard, userId, id, enabled);
  }
  if (settings.time_zone && isTimeZone(settings.time_zone)) await saveTimeZone(shard, userId, settings.time_zone);
  if (settings.default_model) {
    const ref = await usableModel(env, owner, settings.default_model);
    if (ref) await saveDefaultModel(shard, userId, ref);
    else leftOut.push(`the default model (${settings.default_model.model}): it is not one of your models here`);
  }
  const widening = settings.approvals.filter((rule) => rule.mode === "allow").map((rule) => rule.tool);
  for (const rule of settings.approvals)
    if (rule.mode === "ask" && APPROVABLE.has(rule.tool)) await saveApprovalRule(shard, userId, rule.tool, "ask");
  if (widening.length)
    leftOut.push(
      `"Allow without asking" for ${widening.join(", ")}: an import never lets a tool run unasked; set it in Settings → Tools`,
    );
  return leftOut;
}

/** The model as the user has it (their provider's, or the operator's), else undefined. */
export async function usableModel(env: Env, owner: Placement, ref: ModelRef): Promise<ModelRef | undefined> {
  const { providers } = await modelChoices(env, owner);
  return findModel(llmSettings(env), providers, ref)?.ref;
}
