// A tenant trying to stall every controller with CEL: expressions that would run for hours over data
// the tenant controls (four nested all() over a ConfigMap of 300 keys: 8.1 billion steps), as a
// Kustomization's healthCheckExprs and as a dependsOn readyExpr. The controllers share one event
// loop, so before the cost budget such an expression froze them all and lost the leader lease. Each
// now fails its own Kustomization with a message naming the expression and the limit, while the
// controller process lives on and another tenant's new commit becomes Ready during the attack.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileFleet, startHostileFleet } from "../support/hostile-tenants.js";

let f: HostileFleet;

const KEYS = 300;
const wideConfigMap = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: wide\ndata:\n${Array.from(
  { length: KEYS },
  (_, i) => `  k${i}: "v${i}"\n`,
).join("")}`;

/** Four nested all() over the same map: each level multiplies the steps by its size. */
const nestedAll = (map: string) => `${map}.all(a, ${map}.all(b, ${map}.all(c, ${map}.all(d, a + b + c + d != ''))))`;

const LIMIT_MESSAGE = "exceeded the CEL cost limit of 1000000 (controller flag --cel-cost-limit)";

beforeAll(async () => {
  f = await startHostileFleet("celcost");
  await f.attacker.commit({ "wide/cm.yaml": wideConfigMap });
}, 240_000);

afterAll(async () => {
  await f?.stop();
}, 120_000);

describe("a tenant's CEL expressions that would run for hours", () => {
  it("a healthCheckExprs expression fails its Kustomization at the cost limit while the other tenant's commit becomes Ready", async () => {
    const expr = nestedAll("data");
    await f.attacker.createKs("health-bomb", {
      path: "./wide",
      targetNamespace: f.attacker.ns,
      wait: true,
      timeout: "5m",
      healthCheckExprs: [{ apiVersion: "v1", kind: "ConfigMap", current: expr }],
    });
    const [failed] = await Promise.all([
      f.attacker.waitNotReady("health-bomb", "HealthCheckFailed", 120_000),
      f.bystanderKeepsReconciling(),
    ]);
    expect(failed.message).toContain(`healthCheckExprs current '${expr}' on ConfigMap/${f.attacker.ns}/wide`);
    expect(failed.message).toContain(LIMIT_MESSAGE);
    expect(f.controller.child.exitCode).toBeNull();
    expect(f.controller.child.signalCode).toBeNull();
  }, 240_000);

  it("a dependsOn readyExpr fails its Kustomization at the cost limit while the other tenant's commit becomes Ready", async () => {
    // The data the expression walks is the Kustomization's own spec: 300 substitution variables.
    const substitute = Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [`v${i}`, `${i}`]));
    const expr = nestedAll("self.spec.postBuild.substitute");
    await f.attacker.createKs("ready-bomb", {
      path: "./wide",
      targetNamespace: f.attacker.ns,
      postBuild: { substitute },
      dependsOn: [{ name: "health-bomb", readyExpr: expr }],
    });
    const [failed] = await Promise.all([
      f.attacker.waitNotReady("ready-bomb", "DependencyNotReady", 120_000),
      f.bystanderKeepsReconciling(),
    ]);
    expect(failed.message).toContain(`spec.dependsOn[0].readyExpr '${expr}'`);
    expect(failed.message).toContain(LIMIT_MESSAGE);
    expect(f.controller.child.exitCode).toBeNull();
    expect(f.controller.child.signalCode).toBeNull();
  }, 240_000);
});
