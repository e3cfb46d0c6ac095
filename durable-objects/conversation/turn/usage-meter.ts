// The quota meter a turn's operator model is built with (agent/llm/metered-model.ts): admits each call
// against the user's limits in D1 (d1/usage.ts: one atomic statement, only when the user has a limit),
// records what it used in the background, and puts a warning on the conversation's bus when this call
// is the one that crossed 80% or 95% of a limit (`quota.warning`: the agent reads it at its next step,
// the user sees it as a System message). A user's own providers never get a meter (plans.ts).

import type { LlmSettings } from "../../../agent/llm/config";
import { QuotaExceeded, type UsageMeter } from "../../../agent/llm/metered-model";
import type { Notifier } from "../../../agent/notifications/notifier";
import {
  hasLimits,
  limitsFor,
  periodLimitReached,
  quotaReachedWords,
  quotaWarningWords,
  resetsAt,
} from "../../../core/quota-rules";
import { ownerShard } from "../../../d1/shards";
import { admit, type Crossing, type Reservation, readTotals, record, type UsageCall } from "../../../d1/usage";
import type { TurnSettingsRead } from "../../../d1/user-settings";
import { type QuotaLimits, usageCost } from "../../../protocol";
import type { Refusal } from "./running-turn";
import { usesOperatorModel } from "./turn-model";

export const ACCOUNT_INACTIVE_WORDS = "Stopped because this account was disabled by an administrator.";

export class D1UsageMeter implements UsageMeter {
  /** Records run one after another, so a turn's warnings come in order. */
  private recording: Promise<void> = Promise.resolve();
  /** The calls of a user without a limit, not written yet. */
  private held: UsageCall | undefined;

  constructor(
    private readonly d1: D1Database,
    private readonly userId: string,
    private readonly limits: QuotaLimits,
    private readonly llm: Pick<LlmSettings, "model" | "prices">,
    private readonly notifier: Pick<Notifier, "emit">,
  ) {}

  async admit(estimate: () => number): Promise<Reservation | undefined> {
    // No limit for this user: nothing to check before the call (its use is still recorded).
    if (!hasLimits(this.limits)) return undefined;
    // This turn's last call is counted (and its warning given) before the next is admitted: its
    // reservation would otherwise still stand in the totals the warning is read from.
    await this.recording;
    const estimatedInputTokens = estimate();
    const cost = ((this.llm.prices?.input ?? 0) * estimatedInputTokens) / 1e6;
    const now = Date.now();
    const admitted = await admit(this.d1, this.userId, this.limits, { tokens: estimatedInputTokens, cost }, now);
    if ("reservation" in admitted) return admitted.reservation;
    const { refusal } = admitted;
    throw new QuotaExceeded(
      refusal.reason === "inactive" ? ACCOUNT_INACTIVE_WORDS : quotaReachedWords(refusal.period, refusal, now),
    );
  }

  /** A user with a limit waits for the record (its warning goes before the next step); others do not. */
  record(
    ticket: unknown,
    usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number },
  ): Promise<void> {
    const prices = this.llm.prices;
    const cost = prices
      ? usageCost(
          {
            input_tokens: usage.inputTokens,
            output_tokens: usage.outputTokens,
            total_tokens: usage.inputTokens + usage.outputTokens,
            ...(usage.cachedInputTokens !== undefined ? { cached_input_tokens: usage.cachedInputTokens } : {}),
          },
          prices,
        )
      : 0;
    const call = {
      model: this.llm.model,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cost,
      calls: 1,
    };
    if (!hasLimits(this.limits)) {
      // Nothing to check it against: kept, and written with the turn's end (flush), not once per step.
      const held = this.held;
      this.held = held
        ? {
            ...held,
            inputTokens: held.inputTokens + call.inputTokens,
            outputTokens: held.outputTokens + call.outputTokens,
            cost: held.cost + call.cost,
            calls: held.calls + 1,
          }
        : call;
      return Promise.resolve();
    }
    return this.write(call, ticket as Reservation | undefined);
  }

  /** Writes what was held back (a turn's end, a title's): one D1 batch. */
  flush(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    return held ? this.write(held, undefined) : this.recording;
  }

  private write(call: UsageCall, reservation: Reservation | undefined): Promise<void> {
    this.recording = this.recording
      .then(() => record(this.d1, this.userId, call, this.limits, reservation))
      .then((crossing) => crossing && this.warn(crossing))
      .catch((error) => console.warn("usage not recorded", error));
    return this.recording;
  }

  private warn({ period, percent, spent }: Crossing): void {
    const now = Date.now();
    this.notifier.emit({
      type: "quota.warning",
      severity: "warning",
      source: "Quota",
      payload: {
        period,
        percent,
        tokens: spent.tokens,
        cost: spent.cost,
        ...this.limits,
        resets_at: resetsAt(period, now),
        message: quotaWarningWords(period, percent, spent, this.limits, now),
      },
    });
  }
}

/**
 * Why a new turn may not start for this account, before anything is saved or sent: the account is not
 * active (a disabled account's schedules wait), or the operator's model would answer and a limit is
 * reached. The settings may be a copy up to a minute old (user-cache.ts), so a user with a limit has the
 * totals read afresh: other conversations spend from them too.
 */
export async function turnRefusal(
  env: Env,
  { userId, shard }: { userId: string; shard?: number },
  loaded: TurnSettingsRead,
): Promise<Refusal | undefined> {
  if (loaded.account.status !== "active")
    return {
      code: "account_disabled",
      message: "This account is disabled: nothing runs until an administrator enables it",
    };
  if (!usesOperatorModel(env, loaded)) return undefined;
  const limits = limitsFor(env, loaded.account.quotaOverride);
  if (!hasLimits(limits)) return undefined;
  const now = Date.now();
  const reached = periodLimitReached(await readTotals(ownerShard(env, { shard }), userId, now), limits);
  return reached && { code: "quota_exceeded", message: quotaReachedWords(reached.period, reached, now) };
}
