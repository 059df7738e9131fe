import { describe, expect, it } from "vitest";
import { ageOf, humanDuration } from "./human-duration.js";

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe("humanDuration (kubectl's)", () => {
  it.each([
    [-5 * s, "<invalid>"],
    [-0.5 * s, "0s"],
    [119 * s, "119s"],
    [3 * m + 12 * s, "3m12s"],
    [5 * m, "5m"],
    [47 * m, "47m"],
    [3 * h + 20 * m, "3h20m"],
    [30 * h, "30h"],
    [2 * d + 4 * h, "2d4h"],
    [3 * d, "3d"],
    [100 * d, "100d"],
    [3 * 365 * d + 10 * d, "3y10d"],
    [9 * 365 * d, "9y"],
  ])("%d ms → %s", (ms, text) => expect(humanDuration(ms)).toBe(text));

  it("prints <unknown> for no timestamp", () => expect(ageOf(undefined)).toBe("<unknown>"));
});
