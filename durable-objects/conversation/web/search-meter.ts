// The operator's searches in the user's quota (docs/protocol.md "Quotas and usage"): a search through the
// operator's provider costs SEARCH_PRICE (dollars, default 0), is admitted against the user's limits
// like a model call, and is recorded in the usage as `search/<provider>`. A user's own provider is never
// counted.
import { WebFailure } from "../../../agent/web/web-access";
import { hasLimits, quotaReachedWords } from "../../../core/quota-rules";
import { admit, type Reservation, record } from "../../../d1/usage";
import type { QuotaLimits, SearchProvider } from "../../../protocol";

/** SEARCH_PRICE: dollars per search, a number of 0 or more; anything else counts as 0. */
export function searchPrice(env: Pick<Env, "SEARCH_PRICE">): number {
  const price = Number(env.SEARCH_PRICE ?? 0);
  return Number.isFinite(price) && price > 0 ? price : 0;
}

export class SearchMeter {
  constructor(
    private readonly d1: D1Database,
    private readonly userId: string,
    private readonly limits: QuotaLimits,
    private readonly provider: SearchProvider,
    private readonly price: number,
  ) {}

  /** Before a search: a WebFailure in the quota's words when a limit is reached. */
  async admit(): Promise<Reservation | undefined> {
    if (!hasLimits(this.limits)) return undefined;
    const now = Date.now();
    const admitted = await admit(this.d1, this.userId, this.limits, { tokens: 0, cost: this.price }, now);
    if ("reservation" in admitted) return admitted.reservation;
    const { refusal } = admitted;
    throw new WebFailure(
      refusal.reason === "inactive"
        ? "Web search is not available: this account is disabled."
        : `Web search is not available: ${quotaReachedWords(refusal.period, refusal, now)}`,
    );
  }

  /** After it (whether or not it found anything): one search in the usage. */
  async record(reservation: Reservation | undefined): Promise<void> {
    const call = { model: `search/${this.provider}`, inputTokens: 0, outputTokens: 0, cost: this.price, calls: 1 };
    try {
      await record(this.d1, this.userId, call, this.limits, reservation);
    } catch (error) {
      console.warn("search usage not recorded", error);
    }
  }
}
