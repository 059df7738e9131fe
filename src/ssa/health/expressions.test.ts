import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../api/meta/object.js";
import { compileHealthExpressions, InvalidHealthExpressionError } from "./expressions.js";

const READY = "status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')";
const FAILED = "status.conditions.exists(c, c.type == 'Ready' && c.status == 'False')";

const widget = (status: Record<string, unknown> | undefined, generation = 1): KubeObject =>
  ({
    apiVersion: "example.com/v1",
    kind: "Widget",
    metadata: { name: "w", namespace: "ns", generation },
    ...(status ? { status } : {}),
  }) as KubeObject;
const ready = (s: string) => ({ observedGeneration: 1, conditions: [{ type: "Ready", status: s }] });

describe("healthCheckExprs (CEL) health", () => {
  const health = compileHealthExpressions([
    { apiVersion: "example.com/v1", kind: "Widget", current: READY, failed: FAILED },
  ])!;

  it("is Current when `current` is true, Failed when `failed` is true, else InProgress", () => {
    expect(health(widget(ready("True")))?.status).toBe("Current");
    expect(health(widget(ready("False")))?.status).toBe("Failed");
    expect(health(widget(ready("Unknown")))?.status).toBe("InProgress");
  });

  it("evaluates inProgress before failed before current (Flux's RFC 0009 order)", () => {
    const h = compileHealthExpressions([
      { apiVersion: "example.com/v1", kind: "Widget", inProgress: "true", failed: "true", current: "true" },
    ])!;
    expect(h(widget(ready("True")))?.status).toBe("InProgress");
    const f = compileHealthExpressions([
      { apiVersion: "example.com/v1", kind: "Widget", failed: "true", current: "true" },
    ])!;
    expect(f(widget(ready("True")))?.status).toBe("Failed");
  });

  it("is InProgress while status.observedGeneration lags metadata.generation, whatever the expressions", () => {
    const h = health(widget(ready("True"), 2));
    expect(h).toEqual({ status: "InProgress", message: "Widget generation is 2, but latest observed generation is 1" });
  });

  it("keeps an object whose expression cannot be evaluated yet (no status) InProgress, saying why", () => {
    const h = health(widget(undefined));
    expect(h?.status).toBe("InProgress");
    expect(h?.message).toContain(`could not be evaluated`);
    expect(h?.message).toContain(FAILED);
  });

  it("sees whole numbers as CEL ints, as Go's unstructured objects hold them", () => {
    const h = compileHealthExpressions([
      { apiVersion: "example.com/v1", kind: "Widget", current: "status.replicas == 3 && status.ratio > 0.5" },
    ])!;
    expect(h(widget({ replicas: 3, ratio: 0.75 }))?.status).toBe("Current");
  });

  it("supports optional field access as Flux's environment does", () => {
    const h = compileHealthExpressions([
      {
        apiVersion: "example.com/v1",
        kind: "Widget",
        current: "status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'True')",
      },
    ])!;
    expect(h(widget({}))?.status).toBe("InProgress");
    expect(h(widget(ready("True")))?.status).toBe("Current");
  });

  it("leaves kinds it does not name to kstatus (undefined), and covers a whole group when kind is empty", () => {
    expect(health({ ...widget(ready("True")), kind: "Gadget" })).toBeUndefined();
    expect(health({ ...widget(ready("True")), apiVersion: "other.io/v1" })).toBeUndefined();
    const group = compileHealthExpressions([{ apiVersion: "example.com/v1", current: READY }])!;
    expect(group({ ...widget(ready("True")), kind: "Gadget" })?.status).toBe("Current");
  });

  it("says so when an expression does not give a boolean", () => {
    const h = compileHealthExpressions([{ apiVersion: "example.com/v1", kind: "Widget", current: "1 + 1" }])!;
    expect(h(widget(ready("True")))?.message).toBe("healthCheckExprs current '1 + 1' is not a boolean expression");
  });

  it("refuses an expression that does not parse, naming its index, field and text", () => {
    const compile = () =>
      compileHealthExpressions([
        { apiVersion: "v1", kind: "ConfigMap", current: "true" },
        { apiVersion: "example.com/v1", kind: "Widget", inProgress: "foo.", current: "true" },
      ]);
    expect(compile).toThrow(InvalidHealthExpressionError);
    expect(compile).toThrow(/^healthCheckExprs\[1\]\.inProgress: failed to parse the CEL expression 'foo\.': /);
  });

  it("refuses two checks for the same kind", () => {
    expect(() =>
      compileHealthExpressions([
        { apiVersion: "example.com/v1", kind: "Widget", current: "true" },
        { apiVersion: "example.com/v2", kind: "Widget", current: "false" },
      ]),
    ).toThrow("healthCheckExprs[1]: duplicate custom health check for Widget of group 'example.com'");
  });

  it("compiles nothing when there are no checks", () => {
    expect(compileHealthExpressions(undefined)).toBeUndefined();
    expect(compileHealthExpressions([])).toBeUndefined();
  });
});
