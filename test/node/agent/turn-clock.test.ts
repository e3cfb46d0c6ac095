import { describe, expect, it } from "vitest";
import { TurnClock } from "../../../agent/turn/clock";
import { sleep } from "./fake-tool-run";

describe("TurnClock", () => {
  it("aborts its signal with a TimeoutError once the limit has passed", async () => {
    const clock = new TurnClock(30);
    expect(clock.expired).toBe(false);
    await sleep(80);
    expect(clock.expired).toBe(true);
    expect(clock.signal.aborted).toBe(true);
    expect((clock.signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("does not count paused time, and counts the time before the pause", async () => {
    const clock = new TurnClock(100);
    await sleep(60);
    clock.pause();
    await sleep(150);
    expect(clock.expired).toBe(false);
    clock.resume();
    await sleep(5);
    expect(clock.expired).toBe(false);
    await sleep(65);
    expect(clock.expired).toBe(true);
    clock.dispose();
  });

  it("moves its deadline by the time it was paused", async () => {
    const start = Date.now();
    const clock = new TurnClock(10_000);
    expect(clock.deadline).toBeGreaterThanOrEqual(start + 10_000);
    clock.pause();
    await sleep(60);
    clock.resume();
    expect(clock.deadline).toBeGreaterThanOrEqual(start + 10_060);
    clock.dispose();
  });

  it("ignores a second pause and a second resume", async () => {
    const clock = new TurnClock(100);
    clock.pause();
    await sleep(60);
    clock.pause();
    clock.resume();
    clock.resume();
    await sleep(50);
    expect(clock.expired).toBe(false);
    await sleep(100);
    expect(clock.expired).toBe(true);
  });

  it("never fires after dispose", async () => {
    const clock = new TurnClock(30);
    clock.dispose();
    await sleep(80);
    expect(clock.expired).toBe(false);
  });

  it("stays expired after a resume", async () => {
    const clock = new TurnClock(10);
    await sleep(40);
    clock.pause();
    clock.resume();
    expect(clock.expired).toBe(true);
  });
});
