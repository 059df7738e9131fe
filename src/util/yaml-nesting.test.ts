import { describe, expect, it } from "vitest";
import { MAX_YAML_NESTING, parseBoundedYaml, yamlTooDeepAt } from "./yaml-nesting.js";

const flow = (n: number) => `a: ${"[".repeat(n)}${"]".repeat(n)}\n`;

describe("YAML nesting limit", () => {
  it("finds the first collection past the limit without recursing, however deep the text goes", () => {
    expect(yamlTooDeepAt(flow(MAX_YAML_NESTING - 1))).toBeUndefined();
    expect(yamlTooDeepAt(flow(MAX_YAML_NESTING))).toBe(3 + MAX_YAML_NESTING - 1);
    expect(yamlTooDeepAt(flow(100_000))).toBe(3 + MAX_YAML_NESTING - 1);
  });

  it("parses what is within the limit and names what is not", () => {
    expect(parseBoundedYaml("a: [1, {b: 2}]\n", "the values file")).toEqual({ a: [1, { b: 2 }] });
    expect(() => parseBoundedYaml(flow(20_000), "the values file")).toThrow(
      "the values file nests collections deeper than 256 levels, flotilla's limit",
    );
  });
});
