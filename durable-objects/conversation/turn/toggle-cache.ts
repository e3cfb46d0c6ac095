// The user's subscriber toggles as the notifier reads them. A turn reads them once as it starts (with
// the agent config, one D1 round trip) and re-reads them in the background at each later model
// request, once the provider has answered it (a read started as the request leaves would hold it
// back), never waiting for the answer: a toggle changed in Settings reaches a running turn within a
// step, and no step waits on D1 for it. After the turn waited for the user (request_input), and
// outside a turn (a notify delivered while idle), they are read fresh before the next delivery.
import { loadSubscriberToggles, type SubscriberToggles } from "../../../d1/user-settings";

export class ToggleCache {
  private value: SubscriberToggles | undefined;
  private refreshing: Promise<void> | undefined;
  /** Set by a turn's first read, so its first model request does not read them again. */
  private justRead = false;

  constructor(
    private readonly d1: D1Database,
    private readonly userId: string,
  ) {}

  /** What a turn read as it started. */
  set(toggles: SubscriberToggles): void {
    this.value = toggles;
    this.justRead = true;
  }

  /** At a model request of a running turn: a background re-read, one at a time. */
  refresh(): void {
    if (this.justRead) {
      this.justRead = false;
      return;
    }
    this.refreshing ??= loadSubscriberToggles(this.d1, this.userId)
      .then((toggles) => {
        this.value = toggles;
      })
      .catch((error) => console.warn("subscriber toggles: re-read failed, keeping the last ones", error))
      .finally(() => {
        this.refreshing = undefined;
      });
  }

  /** The turn waited for the user, who may have changed Settings meanwhile: the next delivery reads them. */
  forget(): void {
    this.value = undefined;
  }

  /** During a turn the cached toggles (read at its start, refreshed per step); otherwise read now. */
  async current(turnRunning: boolean): Promise<SubscriberToggles> {
    if (turnRunning && this.value) return this.value;
    this.value = await loadSubscriberToggles(this.d1, this.userId);
    return this.value;
  }
}
