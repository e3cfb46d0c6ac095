// The turn's clock on fake timers (Date and setTimeout together): exact deadlines, no sleeping, and no
// millisecond a loaded machine can steal from a real timer.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TurnClock } from "../../../agent/turn/clock";

const T0 = 1_800_000_000_000;

describe("TurnClock", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("aborts its signal with a TimeoutError once the limit has passed", () => {
    const clock = new TurnClock(30);
    vi.advanceTimersByTime(29);
    expect(clock.expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(clock.expired).toBe(true);
    expect(clock.signal.aborted).toBe(true);
    expect((clock.signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("does not count paused time, and counts the time before the pause", () => {
    const clock = new TurnClock(100);
    vi.advanceTimersByTime(60);
    clock.pause();
    vi.advanceTimersByTime(150);
    expect(clock.expired).toBe(false);
    clock.resume();
    vi.advanceTimersByTime(39);
    expect(clock.expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(clock.expired).toBe(true);
    clock.dispose();
  });

  it("moves its deadline by the time it was paused", () => {
    const clock = new TurnClock(10_000);
    expect(clock.deadline).toBe(T0 + 10_000);
    clock.pause();
    vi.advanceTimersByTime(60);
    expect(clock.deadline).toBe(T0 + 10_060);
    clock.resume();
    expect(clock.deadline).toBe(T0 + 10_060);
    clock.dispose();
  });

  it("ignores a second pause and a second resume", () => {
    const clock = new TurnClock(100);
    clock.pause();
    vi.advanceTimersByTime(60);
    clock.pause();
    clock.resume();
    clock.resume();
    vi.advanceTimersByTime(99);
    expect(clock.expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(clock.expired).toBe(true);
  });

  it("never fires after dispose", () => {
    const clock = new TurnClock(30);
    clock.dispose();
    vi.advanceTimersByTime(80);
    expect(clock.expired).toBe(false);
  });

  it("stays expired after a resume", () => {
    const clock = new TurnClock(10);
    vi.advanceTimersByTime(40);
    clock.pause();
    clock.resume();
    expect(clock.expired).toBe(true);
  });
});
