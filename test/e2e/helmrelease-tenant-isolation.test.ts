// Tenants on a locked-down management plane (Flux's multi-tenancy flags), through the real controller
// and the real helm: a tenant's release runs as its namespace's service account and cannot install a
// cluster-scoped object; a chart source in another namespace is refused; and no Secret value — values
// from a Secret, a tenant plane's credentials — appears in status, events or the controller's log.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import { benchChart, certManagerLike, clusterScopedChart } from "../support/charts.js";
import { adminClient, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";
import { LOCKDOWN_ARGS, logText } from "../support/hostile-tenants.js";
import { NotFoundError } from "../../src/kube/errors.js";

const mgmt = planeCluster("management");
let locked: HelmReleaseEnv;
let open: HelmReleaseEnv;

const eventsText = async (ns: string) =>
  JSON.stringify((await mgmt.client.get<{ items: unknown[] }>(`/api/v1/namespaces/${ns}/events`)).items);

beforeAll(async () => {
  locked = await startHelmReleaseEnv("hr-locked", { extraArgs: LOCKDOWN_ARGS });
  // As flux2-multi-tenancy does: the tenant namespace's default service account may edit that namespace only.
  await mgmt.client.create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${locked.ns}/rolebindings`, {
    metadata: { name: "default-edit" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "edit" },
    subjects: [{ kind: "ServiceAccount", name: "default", namespace: locked.ns }],
  });
  await clusterScopedChart(locked.charts, "reader", "1.0.0");
  await benchChart(locked.charts);
  open = await startHelmReleaseEnv("hr-secrets");
  await benchChart(open.charts);
  await certManagerLike(open.charts);
}, 240_000);
afterAll(async () => {
  await locked?.stop();
  await open?.stop();
  // The namespace the release made on tenant1 (a workload cluster other tests look at).
  if (open)
    await adminClient("tenant1")
      .delete(`/api/v1/namespaces/${open.ns}`)
      .catch(() => {});
});

describe("HelmRelease tenant isolation", () => {
  it("a tenant release impersonating its namespace's service account cannot install a ClusterRole: Forbidden, nothing installed", async () => {
    await locked.createRelease("escalate", { name: "reader", version: "1.0.0" });
    const o = await locked.waitReady("escalate", "False");
    const msg = condOf(o, "Ready")!.message;
    expect(msg).toContain(`system:serviceaccount:${locked.ns}:default`);
    expect(msg).toMatch(/forbidden/i);
    expect(msg).toContain("clusterroles");
    expect(msg).toContain(`impersonating '${locked.ns}/default' set by --default-service-account`);
    await expect(
      adminClient("management").get(`/apis/rbac.authorization.k8s.io/v1/clusterroles/escalate-reader`),
    ).rejects.toBeInstanceOf(NotFoundError);
    // The same identity installs what its namespace allows.
    await locked.createRelease("allowed", { name: "bench", version: "1.0.0" });
    await locked.waitReady("allowed");
  }, 300_000);

  it("a chart source in another namespace is refused under --no-cross-namespace-refs", async () => {
    const other = await testNamespace(mgmt.client, "hr-other-source");
    await mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${other}/helmrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "HelmRepository",
      metadata: { name: "elsewhere", namespace: other },
      spec: { interval: "10m", url: locked.charts.url },
    });
    await locked.createRelease(
      "crossns",
      { name: "bench", version: "1.0.0" },
      {
        chart: {
          metadata: { labels: { "flotilla.dev/shard": locked.ns } },
          spec: {
            chart: "bench",
            version: "1.0.0",
            sourceRef: { kind: "HelmRepository", name: "elsewhere", namespace: other },
          },
        },
      },
    );
    const o = await locked.waitReady("crossns", "False");
    expect(condOf(o, "Ready")!.message).toBe(
      `can't access 'HelmRepository/${other}/elsewhere', cross-namespace references have been blocked`,
    );
    // Nothing made on the tenant's behalf in the other namespace.
    const charts = await mgmt.client.get<{ items: unknown[] }>(
      `/apis/source.toolkit.fluxcd.io/v1/namespaces/${other}/helmcharts`,
    );
    expect(charts.items).toEqual([]);
  }, 240_000);

  it("no Secret value — valuesFrom a Secret, a tenant plane's credentials — in status, events or logs, on success and on failure", async () => {
    const sentinel = `s3cr3t-${Date.now().toString(36)}`;
    const kubeconfig = readFileSync(plane("tenant1").kubeconfig, "utf8");
    const clientKey = /client-key-data: (\S+)/.exec(kubeconfig)?.[1];
    expect(clientKey).toBeTruthy();
    for (const [name, data] of [
      ["good-values", { "values.yaml": `message: ${sentinel}\n` }],
      ["bad-values", { "values.yaml": `replicaCount: ${sentinel}\n` }],
      ["tenant1-kubeconfig", { value: kubeconfig }],
    ] as const)
      await mgmt.client.create(`/api/v1/namespaces/${open.ns}/secrets`, {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name, namespace: open.ns },
        stringData: data,
      });
    await open.createRelease(
      "leak-ok",
      { name: "bench", version: "1.0.0" },
      {
        valuesFrom: [{ kind: "Secret", name: "good-values" }],
        kubeConfig: { secretRef: { name: "tenant1-kubeconfig" } },
        // Its own namespace on tenant1, removed afterwards: other tests count what tenant1's default holds.
        targetNamespace: open.ns,
        install: { createNamespace: true },
        releaseName: "leak-ok",
      },
    );
    await open.createRelease(
      "leak-bad",
      { name: "cert-manager", version: "v1.10.1" },
      {
        valuesFrom: [{ kind: "Secret", name: "bad-values" }],
      },
    );
    const ok = await open.waitReady("leak-ok");
    const bad = await open.waitReady("leak-bad", "False");
    expect(condOf(bad, "Ready")!.message).toContain("replicaCount");
    // The value did reach the release: it is in tenant1's ConfigMap (not a vacuous check).
    const cm = await adminClient("tenant1").get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${open.ns}/configmaps/leak-ok`,
    );
    expect(cm.data.message).toBe(sentinel);
    const seen = [
      JSON.stringify(ok as HelmRelease),
      JSON.stringify(bad),
      await eventsText(open.ns),
      logText(open.controller),
    ].join("\n");
    expect(seen).not.toContain(sentinel);
    expect(seen).not.toContain(clientKey!);
  }, 300_000);
});
