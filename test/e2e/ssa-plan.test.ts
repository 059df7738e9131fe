// The resource manager's public plan against a real apiserver: what an apply would do to each
// object — create, update with the changed fields, unchanged, skip and why, fail and why — with
// Secret values never shown, and nothing written.
import { describe, expect, it } from "vitest";
import { requestCounts } from "../../src/kube/client.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { ResourceManager } from "../../src/ssa/index.js";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMap } from "../support/objects.js";

const owner = { group: "kustomize.toolkit.fluxcd.io", name: "apps", namespace: "flux-system" };
const cluster = planeCluster("tenant1");
const manager = () => new ResourceManager(cluster, { fieldManager: "flotilla-test", owner });

const secret = (namespace: string, name: string, token: string): KubeObject => ({
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name, namespace },
  type: "Opaque",
  data: { token: Buffer.from(token).toString("base64") },
});

describe("resource manager plan", () => {
  it("says per object what an apply would do, shows changed fields with Secret values hidden, and writes nothing", async () => {
    const ns = await testNamespace(cluster.client, "plan");
    const existing = [
      configMap(ns, "same", { a: "1" }),
      configMap(ns, "changed", { a: "1", keep: "x" }),
      secret(ns, "creds", "old-token-value"),
      configMap(ns, "ignored", { a: "1" }),
    ];
    await manager().apply(existing);
    // Someone marked this one as not to be reconciled, on the live object.
    await cluster.client.patch(`/api/v1/namespaces/${ns}/configmaps/ignored`, "merge", {
      metadata: { annotations: { "kustomize.toolkit.fluxcd.io/reconcile": "disabled" } },
    });
    const versionsBefore = await Promise.all(
      existing.map(async (o) => (await cluster.get(o))!.metadata.resourceVersion),
    );

    const counted = { ...Object.fromEntries(requestCounts) };
    const sent = (k: string) => (requestCounts.get(k) ?? 0) - (counted[k] ?? 0);
    const plan = await manager().plan([
      configMap(ns, "fresh", { a: "1" }),
      configMap(ns, "same", { a: "1" }),
      configMap(ns, "changed", { a: "2", keep: "x" }),
      secret(ns, "creds", "new-token-value"),
      configMap(ns, "ignored", { a: "2" }),
      configMap(ns, "skipped-by-set", { a: "1" }, { "kustomize.toolkit.fluxcd.io/ssa": "Ignore" }),
      { ...configMap(ns, "invalid"), data: { a: 1 } } as unknown as KubeObject,
    ]);
    const byName = Object.fromEntries(plan.map((e) => [e.name, e]));

    expect(byName.fresh).toMatchObject({ action: "create", subject: `ConfigMap/${ns}/fresh`, kind: "ConfigMap" });
    expect(byName.fresh!.diff).toBeUndefined();
    expect(byName.same).toMatchObject({ action: "unchanged" });
    expect(byName.changed).toMatchObject({ action: "update", diff: [{ path: "data.a", before: "1", after: "2" }] });
    expect(byName.creds).toMatchObject({
      action: "update",
      diff: [{ path: "data.token", before: "*** (before)", after: "*** (after)" }],
    });
    expect(byName.ignored).toMatchObject({
      action: "skip",
      reason: "kustomize.toolkit.fluxcd.io/reconcile: disabled on the live object",
    });
    expect(byName["skipped-by-set"]).toMatchObject({
      action: "skip",
      reason: "kustomize.toolkit.fluxcd.io/ssa: Ignore",
    });
    expect(byName.invalid!.action).toBe("fail");
    expect(byName.invalid!.reason).toMatch(/ConfigMap|cannot|unmarshal|invalid/i);
    // No value of either Secret, plain or base64, anywhere in the plan.
    const text = JSON.stringify(plan);
    for (const value of ["old-token-value", "new-token-value"])
      for (const form of [value, Buffer.from(value).toString("base64")]) expect(text).not.toContain(form);

    // Nothing written: every live object as it was, the new one not created, no write request sent.
    const versionsAfter = await Promise.all(
      existing.map(async (o) => (await cluster.get(o))!.metadata.resourceVersion),
    );
    expect(versionsAfter).toEqual(versionsBefore);
    expect(await cluster.get(configMap(ns, "fresh"))).toBeUndefined();
    expect([sent("PATCH"), sent("POST"), sent("PUT"), sent("DELETE")]).toEqual([0, 0, 0, 0]);
    expect(sent("PATCH dryRun")).toBeGreaterThan(0);
  });
});
