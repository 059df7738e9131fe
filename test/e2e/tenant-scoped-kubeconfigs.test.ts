// A kubeconfig bound by RBAC to one namespace of tenant1 (Kamaji's KubeconfigGenerator kind; decision
// 0044): a Kustomization applies there and its drift watch watches that namespace instead of retrying a
// refused cluster-wide watch; a fleet Cluster on it is Ready and says what its identity may not do.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetCluster } from "../../src/api/fleet/cluster.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import type { Controller } from "../../src/runtime/controller.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, plane, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import { issueKubeconfig } from "../support/plane-identity.js";
import { allowConfigMapsIn, tenant1, writeKubeconfigSecret } from "../support/tenant-identities.js";

const SHARD = "flotilla.dev/shard";
const user = `tkc-scoped-${randomBytes(3).toString("hex")}`;
const controllers: Controller[] = [];
let h: KustomizeHarness;
let scopedNs: string;

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "tks", driftWatch: true });
  await serveFleetCrds(h);
  controllers.push(...(await startFleetControllers(h, `${SHARD}=${h.ns}`)));
  scopedNs = await testNamespace(tenant1.client, "tksns");
  await allowConfigMapsIn(user, scopedNs);
  await writeKubeconfigSecret(h.mgmt, h.ns, "scoped", issueKubeconfig("tenant1", { commonName: user }));
}, 180_000);

afterAll(async () => {
  for (const c of controllers) await c.stop();
  await h?.stop();
}, 120_000);

describe("a kubeconfig bound by RBAC to one namespace", () => {
  it("applies there, and the drift watch watches that namespace instead of retrying a refused cluster-wide watch", async () => {
    await h.commit({ "scoped/cm.yaml": configMap("scoped", scopedNs, { v: "1" }) }, "scoped v1");
    await h.createKs("scoped", { path: "./scoped", interval: "1h", kubeConfig: { secretRef: { name: "scoped" } } });
    await h.waitReady("scoped", 120_000);
    const path = `/api/v1/namespaces/${scopedNs}/configmaps/scoped`;
    expect((await tenant1.client.get<{ data: Record<string, string> }>(path)).data).toEqual({ v: "1" });
    // Its cluster-wide watch refused, the drift watch says when the namespace's watch has listed.
    await eventually(
      "the drift watch listed in the namespace",
      async () => h.recentLog(`"owner":"${h.ns}/scoped"`).includes('"msg":"drift watch: listed"') || undefined,
      60_000,
    );

    // The user may not list ConfigMaps cluster-wide: only a watch in its namespace can see this edit
    // (the interval is an hour). Edited again, each time to a new value, until put back: the namespace
    // watch's first list is its baseline, so an edit made while it is still falling back (a loaded CI
    // machine) is not drift to it, and only a later edit is an event it must see. The edit comes from
    // another process: the drift watch ignores this process's own writes.
    let edits = 0;
    const handEdit = () =>
      execFileSync(join(toolsDir(), "bin", "kubectl"), [
        ...["--kubeconfig", plane("tenant1").kubeconfig, "-n", scopedNs, "patch", "configmap", "scoped"],
        ...["--type", "merge", "-p", JSON.stringify({ data: { v: `edited-${++edits}` } })],
      ]);
    const read = async () => (await tenant1.client.get<{ data: Record<string, string> }>(path)).data.v;
    await eventually(
      "a hand edit put back",
      async () => {
        handEdit();
        return eventually("put back", async () => (await read()) === "1", 10_000).then(
          () => true,
          () => false,
        );
      },
      120_000,
    ).catch((err: Error) => {
      // What the drift watch and the reconciles did meanwhile (a CI failure was silent about it).
      throw new Error(`${err.message}\ncontrollers' log:\n${h.recentLog(h.ns)}`);
    });
    expect((await h.waitReady("scoped")).status?.conditions?.find((c) => c.type === "Ready")?.status).toBe("True");
  }, 300_000);

  it("makes a fleet Cluster Ready that says its identity may not list nodes, instead of unreachable", async () => {
    await h.mgmt.client.create(pathOf(SERVED_KINDS.Cluster, h.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name: "scoped", namespace: h.ns, labels: { [SHARD]: h.ns } },
      spec: { kubeConfig: { secretRef: { name: "scoped" } }, interval: "1h" },
    });
    const cluster = await eventually(
      "the Cluster probed",
      async () => {
        const c = await h.mgmt.client.get<FleetCluster>(pathOf(SERVED_KINDS.Cluster, h.ns, "scoped"));
        return c.status?.lastProbeTime ? c : undefined;
      },
      120_000,
    );
    const condition = (type: string) => cluster.status?.conditions?.find((c) => c.type === type);
    expect(condition("Ready")).toMatchObject({ status: "True", reason: "ClusterReady" });
    expect(condition("Ready")?.message).toMatch(
      /^Kubernetes v\d+\.\d+\.\d+, nodes not visible to the kubeconfig's identity \(may not list nodes\)$/,
    );
    expect(condition("ClusterWide")).toMatchObject({
      status: "False",
      reason: "NamespaceScoped",
      message: `the kubeconfig's identity '${user}' may not list nodes (a namespace-scoped kubeconfig): it serves objects in the namespaces its RBAC allows, cluster-scoped objects are refused`,
    });
    expect(cluster.status?.kubernetesVersion).toMatch(/^v\d+/);
    expect(cluster.status?.nodeCount).toBeUndefined();
  }, 180_000);
});
