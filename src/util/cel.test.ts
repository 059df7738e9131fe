import { describe, expect, it } from "vitest";
import { asCelValue, CelExpressionError, celEnvironment, compileCel, runCel } from "./cel.js";

describe("CEL as Flux evaluates it", () => {
  const deps = celEnvironment(["self", "dep"]);

  it("runs a dependsOn readyExpr over `self` and `dep`", () => {
    const program = compileCel(deps, "self.metadata.annotations['v'] == dep.metadata.annotations['v']", { bool: true });
    const obj = (v: string) => asCelValue({ metadata: { annotations: { v } } });
    expect(runCel(program, { self: obj("1"), dep: obj("1") })).toBe(true);
    expect(runCel(program, { self: obj("1"), dep: obj("2") })).toBe(false);
  });

  it("refuses an unknown variable or a non-boolean result when the variables are declared", () => {
    expect(() => compileCel(deps, "self.generation == deps.generation", { bool: true })).toThrow(
      "failed to check the CEL expression 'self.generation == deps.generation': Unknown variable: deps",
    );
    expect(() => compileCel(deps, "self.metadata.name", { bool: true })).toThrow(
      "CEL expression 'self.metadata.name' must be boolean, not dyn",
    );
  });

  it("names the expression that does not parse", () => {
    expect(() => compileCel(celEnvironment(), "status.phase ==")).toThrow(CelExpressionError);
    expect(() => compileCel(celEnvironment(), "status.phase ==")).toThrow(
      /^failed to parse the CEL expression 'status\.phase ==': /,
    );
  });

  it("gives an evaluation error's first line", () => {
    const program = compileCel(celEnvironment(), "status.phase == 'Ready'");
    expect(() => runCel(program, { status: {} })).toThrow(/^No such key: phase$/);
  });

  it("hands whole numbers over as ints and fractions as doubles, as Go's unstructured objects hold them", () => {
    expect(asCelValue({ a: [1, 2.5], b: "x", c: null })).toEqual({ a: [1n, 2.5], b: "x", c: null });
  });
});
