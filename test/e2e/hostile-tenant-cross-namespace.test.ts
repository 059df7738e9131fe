// A tenant reaching into other namespaces through a Kustomization's references, against the real
// controller process under Flux's lockdown flags: another namespace's kubeConfig Secret (Flux's
// secretRef is namespace-local, so the name is looked up in the tenant's own namespace), another
// namespace's source and dependency (blocked by --no-cross-namespace-refs), and substituteFrom of
// another namespace's Secret (namespace-local too; a name shaped like a path reaches nothing).
// The in-process variants of the sourceRef/dependsOn refusals are in kustomization-refusals.test.ts.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planeCluster } from "../support/fleet-context.js";
import { type HostileFleet, logText, mgmt, startHostileFleet } from "../support/hostile-tenants.js";

let f: HostileFleet;
const tenant1 = planeCluster("tenant1");
const victimValue = `victim-${randomBytes(8).toString("hex")}`;
const exists = async (path: string) => (await mgmt.client.get(path).catch(() => undefined)) !== undefined;

beforeAll(async () => {
  f = await startHostileFleet("xns");
  // What the attacker is after: the bystander's Secret, and the platform's admin kubeconfig of tenant1.
  await mgmt.client.create(`/api/v1/namespaces/${f.bystander.ns}/secrets`, {
    metadata: { name: "victim-secret" },
    stringData: { VICTIM: victimValue },
  });
  await f.attacker.commit({
    "stolen/cm.yaml": [
      "apiVersion: v1",
      "kind: ConfigMap",
      "metadata:",
      `  name: stolen-${f.attacker.ns}`,
      "  namespace: default",
      "data:",
      '  value: "${VICTIM:=nothing}"',
      "",
    ].join("\n"),
  });
}, 240_000);

afterAll(async () => {
  await f?.stop();
});

describe("a tenant using another namespace's objects", () => {
  it("cannot use the platform's kubeconfig Secret of another namespace: it is looked up in its own, not found", async () => {
    await f.attacker.createKs("steal-kubeconfig", {
      path: "./stolen",
      kubeConfig: { secretRef: { name: "tenant1-admin-kubeconfig" } },
    });
    const failed = await f.attacker.waitNotReady("steal-kubeconfig", "ReconciliationFailed");
    expect(failed.message).toBe(
      `failed to get kubeconfig secret '${f.attacker.ns}/tenant1-admin-kubeconfig': not found`,
    );
    // The Secret it named does exist, in `tenants`; nothing reached tenant1.
    expect(await exists("/api/v1/namespaces/tenants/secrets/tenant1-admin-kubeconfig")).toBe(true);
    expect(
      await tenant1.get({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: `stolen-${f.attacker.ns}`, namespace: "default" },
      }),
    ).toBeUndefined();
    await f.bystanderKeepsReconciling();
  });

  it("cannot use another namespace's source or depend on another namespace's Kustomization", async () => {
    await f.attacker.createKs("steal-source", {
      path: "./app",
      sourceRef: { kind: "GitRepository", name: "repo", namespace: f.bystander.ns },
    });
    const source = await f.attacker.waitNotReady("steal-source", "AccessDenied");
    expect(source.message).toBe(
      `can't access 'GitRepository/${f.bystander.ns}/repo', cross-namespace references have been blocked`,
    );
    await f.attacker.createKs("steal-dependency", {
      path: "./stolen",
      dependsOn: [{ name: "steady", namespace: f.bystander.ns }],
    });
    const dep = await f.attacker.waitNotReady("steal-dependency", "AccessDenied");
    expect(dep.message).toBe(
      `can't access 'Kustomization/${f.bystander.ns}/steady', cross-namespace references have been blocked`,
    );
    for (const name of ["steal-source", "steal-dependency"]) {
      const ks = await f.attacker.getKs(name);
      expect(ks.status?.conditions?.find((c) => c.type === "Stalled")?.status).toBe("True");
      expect(ks.status?.inventory?.entries ?? []).toEqual([]);
    }
    // The bystander's own ConfigMap was applied by the bystander only (its revision, its round).
    await f.bystanderKeepsReconciling();
  });

  it("cannot substitute from another namespace's Secret: substituteFrom reads its own namespace only, whatever the name", async () => {
    for (const [name, secretName] of [
      ["steal-vars", "victim-secret"],
      // Shaped like an API path into the bystander's namespace: the name is one escaped path segment.
      ["steal-vars-path", `../../${f.bystander.ns}/secrets/victim-secret`],
    ] as const) {
      await f.attacker.createKs(name, {
        path: "./stolen",
        targetNamespace: f.attacker.ns,
        postBuild: { substituteFrom: [{ kind: "Secret", name: secretName }] },
      });
      const failed = await f.attacker.waitNotReady(name, "BuildFailed");
      expect(failed.message).toContain(`substitute from 'Secret/${secretName}' failed`);
      expect(failed.message).toMatch(/not found|could not find/i);
    }
    expect(await exists(`/api/v1/namespaces/${f.attacker.ns}/configmaps/stolen-${f.attacker.ns}`)).toBe(false);
    await f.bystanderKeepsReconciling();
    const everything = JSON.stringify([
      await f.attacker.getKs("steal-vars"),
      await f.attacker.getKs("steal-vars-path"),
      await f.attacker.events(),
      logText(f.controller),
    ]);
    expect(everything).not.toContain(victimValue);
  });

  it("cannot read another namespace's object through a health check: it is read as its own service account", async () => {
    await f.attacker.createKs("peek-health", {
      path: "./stolen",
      targetNamespace: f.attacker.ns,
      timeout: "15s",
      healthChecks: [{ apiVersion: "v1", kind: "ConfigMap", name: "steady", namespace: f.bystander.ns }],
    });
    const failed = await f.attacker.waitNotReady("peek-health", "HealthCheckFailed");
    expect(failed.message).toContain(`User "system:serviceaccount:${f.attacker.ns}:default" cannot`);
    await f.bystanderKeepsReconciling();
  });
});
