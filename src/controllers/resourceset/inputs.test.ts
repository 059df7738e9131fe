import { describe, expect, it } from "vitest";
import { combineInputs, inputId, MAX_PERMUTATIONS, normalizeKey, orderProviders } from "./inputs.js";

const src = (name: string, inputs: Record<string, unknown>[], kind = "ResourceSetInputProvider") => ({
  apiVersion: "fluxcd.controlplane.io/v1",
  kind,
  name,
  namespace: "apps",
  inputs,
});

describe("ResourceSet input combination (the operator's internal/inputs)", () => {
  it("ids are the decimal adler32 checksum, as inputs.ID", () => {
    expect(inputId("Wikipedia")).toBe(String(0x11e60398));
  });

  it("normalizes provider names for templates: lower case, punctuation to _, the rest dropped", () => {
    expect(normalizeKey("My-RSet.v2 (é)")).toBe("my_rset_v2");
    expect(normalizeKey("--")).toBe("");
  });

  it("Flatten: the ResourceSet's inputs first, then providers by namespace and name, each with its provider", () => {
    const own = src("apps", [{ a: 1 }], "ResourceSet");
    const sets = combineInputs("Flatten", orderProviders(own, [src("z", [{ z: 1 }]), src("b", [{ b: 1 }])]));
    expect(sets.map((s) => Object.keys(s)[0])).toEqual(["a", "b", "z"]);
    expect(sets[0]!.provider).toEqual({
      apiVersion: "fluxcd.controlplane.io/v1",
      kind: "ResourceSet",
      name: "apps",
      namespace: "apps",
    });
  });

  it("Permute: the Cartesian product, each set under its provider's name, ids from the choice; empty providers skipped unless included", () => {
    const sets = combineInputs("Permute", [
      src("my-rset", [{ x: 1 }, { x: 2 }]),
      src("git-tag", [{ sha: "s" }]),
      src("none", []),
    ]);
    expect(sets).toHaveLength(2);
    expect(sets[1]).toMatchObject({ my_rset: { x: 2 }, git_tag: { sha: "s" }, id: inputId("my_rset=1/git_tag=0") });
    expect(combineInputs("Permute", [src("a", [{}]), src("none", [])], true)).toEqual([]);
  });

  it(`Permute refuses more than ${MAX_PERMUTATIONS} permutations, naming the provider`, () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ i }));
    expect(() => combineInputs("Permute", [src("a", many), src("b", many)])).toThrow(
      "failed to compute inputs: failed to get inputs from ResourceSetInputProvider/b: adding provider 'b' with 101 inputs would exceed the maximum allowed permutations. max: 10000, got: 10201",
    );
  });
});
