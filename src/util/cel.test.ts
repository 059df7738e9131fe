import { describe, expect, it } from "vitest";
import {
  asCelValue,
  CelCostLimitError,
  CelExpressionError,
  celEnvironment,
  compileCel,
  DEFAULT_CEL_COST_LIMIT,
  runCel,
  setCelCostLimit,
} from "./cel.js";
import { withCelBudget } from "./cel-cost.js";

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

describe("the CEL cost limit (Kubernetes' per-expression budget)", () => {
  const env = celEnvironment();
  const wideMap = asCelValue({
    data: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, `v${i}`])),
  }) as Record<string, unknown>;
  const timed = (run: () => unknown) => {
    const started = Date.now();
    try {
      run();
    } catch (err) {
      return { err: err as Error, ms: Date.now() - started };
    }
    return { err: undefined, ms: Date.now() - started };
  };

  it("stops three nested all() over a 300-key map at the limit, naming it, in well under a second of work", () => {
    const program = compileCel(env, "data.all(a, data.all(b, data.all(c, a + b + c != '')))");
    const { err, ms } = timed(() => runCel(program, wideMap));
    expect(err).toBeInstanceOf(CelCostLimitError);
    expect(err!.message).toBe("exceeded the CEL cost limit of 1000000 (controller flag --cel-cost-limit)");
    // 27 million steps would take minutes; the budget is spent in a fraction of a second (generous bound).
    expect(ms).toBeLessThan(3_000);
  });

  it("leaves the expressions of Flux's documentation far below the limit", () => {
    const deployment = asCelValue({
      metadata: { generation: 2 },
      status: {
        observedGeneration: 2,
        conditions: [
          { type: "Available", status: "True" },
          { type: "Progressing", status: "True", reason: "NewReplicaSetAvailable" },
        ],
      },
    }) as Record<string, unknown>;
    const current =
      "status.conditions.filter(e, e.type == 'Available').all(e, e.status == 'True') && status.conditions.exists(e, e.type == 'Progressing' && e.reason == 'NewReplicaSetAvailable')";
    const { value, cost } = withCelBudget(DEFAULT_CEL_COST_LIMIT, () => compileCel(env, current)(deployment));
    expect(value).toBe(true);
    expect(cost).toBeLessThan(200);
  });

  it("takes its limit from the controller flag", () => {
    const program = compileCel(env, "data.all(k, k != '')");
    expect(runCel(program, wideMap)).toBe(true);
    setCelCostLimit(100);
    try {
      expect(() => runCel(program, wideMap)).toThrow("exceeded the CEL cost limit of 100 ");
    } finally {
      setCelCostLimit(DEFAULT_CEL_COST_LIMIT);
    }
  });

  it("charges operations by the size of what they compare and build, the expression's root included", () => {
    // One node, but it compares every entry: a 300-key map costs its entries.
    const { cost } = withCelBudget(DEFAULT_CEL_COST_LIMIT, () => compileCel(env, "data == data")(wideMap));
    expect(cost).toBeGreaterThan(600);
    // Doubling a string 40 times in 40 nodes would be a terabyte; each concatenation pays for its length.
    let doubling = "'0123456789'";
    for (let i = 0; i < 40; i++) doubling = `cel.bind(s${i}, ${doubling}, s${i} + s${i})`;
    const { err, ms } = timed(() => runCel(compileCel(env, `size(${doubling}) > 0`), {}));
    expect(err).toBeInstanceOf(CelCostLimitError);
    expect(ms).toBeLessThan(3_000);
  });

  it("runs a catastrophically backtracking pattern in linear time and refuses what RE2 refuses", () => {
    const name = { metadata: { name: `${"a".repeat(40)}!` } };
    const { err, ms } = timed(() =>
      expect(runCel(compileCel(env, "metadata.name.matches('^(a+)+$')"), name)).toBe(false),
    );
    expect(err).toBeUndefined();
    expect(ms).toBeLessThan(3_000);
    expect(() => runCel(compileCel(env, "metadata.name.matches('^(a+)+\\\\1$')"), name)).toThrow(
      "matches: '^(a+)+\\1$' uses back-references or look-arounds, which RE2 does not support",
    );
    expect(() => runCel(compileCel(env, "metadata.name.matches('^a(?=b)')"), name)).toThrow(/look-arounds/);
    // An escaped backslash followed by a digit is no back-reference.
    expect(runCel(compileCel(env, "'x\\\\1'.matches('^x\\\\\\\\1$')"), {})).toBe(true);
  });
});
