import { describe, expect, it } from "vitest";
import { FAST_POLL_MS, FAST_WINDOW_MS, nextPollDelay } from "./follow";

describe("the CLI's poll schedule", () => {
  it("polls quickly for the first seconds after a start or a change", () => {
    expect(nextPollDelay(0, 0, 1000)).toBe(FAST_POLL_MS);
    expect(nextPollDelay(FAST_POLL_MS, FAST_WINDOW_MS - 1, 1000)).toBe(FAST_POLL_MS);
    // never faster than asked
    expect(nextPollDelay(0, 0, 100)).toBe(100);
  });

  it("then slows down by half each poll, up to everyMs", () => {
    const delays: number[] = [];
    let d = FAST_POLL_MS;
    for (let n = 0; n < 6; n++) delays.push((d = nextPollDelay(d, FAST_WINDOW_MS + n * 1000, 1000)));
    expect(delays).toEqual([300, 450, 675, 1000, 1000, 1000]);
  });
});
