import { describe, expect, it } from "vitest";
import { pollDelays } from "./wait.js";

const first = (n: number, interval: number) => {
  const it = pollDelays(interval);
  return Array.from({ length: n }, () => it.next().value);
};

describe("pollDelays", () => {
  it("reads again after 100 ms, then doubles up to the interval and stays there", () => {
    expect(first(8, 2000)).toEqual([100, 200, 400, 800, 1600, 2000, 2000, 2000]);
  });

  it("never waits longer than an interval shorter than the first delay", () => {
    expect(first(3, 50)).toEqual([50, 50, 50]);
    expect(first(4, 500)).toEqual([100, 200, 400, 500]);
  });
});
