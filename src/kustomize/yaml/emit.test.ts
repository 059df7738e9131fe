import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toYaml } from "./emit.js";
import { keyLess } from "./key-order.js";

describe("YAML output identical to go-yaml v2 (kustomize's printer)", () => {
  it("quotes, folds, escapes and orders exactly as the real kustomize does (golden file from kustomize)", () => {
    const input = JSON.parse(readFileSync("test/fixtures/yaml-emit/thing.json", "utf8"));
    expect(toYaml(input)).toBe(readFileSync("test/fixtures/yaml-emit/expected.yaml", "utf8"));
  });

  it("orders keys naturally: non-letters before letters, digit runs compared by value", () => {
    const sorted = ["a10", "a2", "B", "_x", "a", "1x", "10"].sort((a, b) => (keyLess(a, b) ? -1 : 1));
    expect(sorted).toEqual(["_x", "10", "1x", "B", "a", "a2", "a10"]);
  });
});
