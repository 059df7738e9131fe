import { describe, expect, it } from "vitest";
import { labelMatcher } from "./label-selector.js";

const m = (sel: string, labels: Record<string, string>) => labelMatcher(sel)!(labels);

describe("a target-clusters selector matched in the page", () => {
  it("reads the API's equality, set and existence requirements", () => {
    expect(m("env=prod", { env: "prod" })).toBe(true);
    expect(m("env==prod", { env: "dev" })).toBe(false);
    expect(m("env!=prod", {})).toBe(true);
    expect(m("tier in (a, b),env=prod", { tier: "b", env: "prod" })).toBe(true);
    expect(m("tier notin (a,b)", { tier: "a" })).toBe(false);
    expect(m("!canary", { canary: "" })).toBe(false);
    expect(m("region", { region: "eu" })).toBe(true);
    expect(m("", { any: "thing" })).toBe(true);
  });

  it("answers undefined for what it does not parse, so the page falls back to what was applied", () => {
    expect(labelMatcher("env in prod")).toBeUndefined();
    expect(labelMatcher("a=b=c")).toBeUndefined();
  });
});
