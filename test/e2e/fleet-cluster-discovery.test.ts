// The fleet's clusters as objects: the real `flotilla controller` (sharded to this file's namespace)
// makes a Cluster of every Kamaji TenantControlPlane — here copies of tenant1's, with its real admin
// kubeconfig Secret — probes the real tenant plane behind it, follows the plane's readiness, and lets
// the Cluster go with its plane. A Cluster written by hand whose kubeconfig reaches nothing is not
// Ready, saying why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import type { FleetCluster } from "../../src/api/fleet/cluster.js";
import type { Condition } from "../../src/api/meta/conditions.js";
import { SERVED_KINDS, USED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { startController } from "../support/controller-process.js";
import { runCli } from "../support/cli.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";

const mgmt = planeCluster("management");
const SHARD = "flotilla.dev/shard";
let ns: string;
let storage: string;

const tcpPath = (name?: string) => pathOf(USED_KINDS.TenantControlPlane, ns, name);
const clusterPath = (name: string) => pathOf(SERVED_KINDS.Cluster, ns, name);
const ready = (c: FleetCluster | undefined): Condition | undefined =>
  c?.status?.conditions?.find((x) => x.type === "Ready");

async function getCluster(name: string): Promise<FleetCluster | undefined> {
  try {
    return await mgmt.client.get<FleetCluster>(clusterPath(name));
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** Waits until the Cluster's Ready condition has `status`; returns the Cluster and that condition. */
async function clusterReady(name: string, status: "True" | "False", timeoutMs: number) {
  return eventually(
    `Cluster ${name} Ready=${status}`,
    async () => {
      const c = await getCluster(name);
      const r = ready(c);
      return r?.status === status ? { c: c!, r } : undefined;
    },
    timeoutMs,
  );
}

/** tenant1's Kamaji admin kubeconfig, as its Secret in the shared fleet holds it (base64). */
async function tenant1AdminConf(): Promise<string> {
  const admin = await mgmt.client.get<{ data: Record<string, string> }>(
    pathOf(USED_KINDS.Secret, "tenants", "tenant1-admin-kubeconfig"),
  );
  return admin.data["admin.conf"]!;
}

/** A TenantControlPlane as Kamaji writes one, Ready, its kubeconfig the copy of tenant1's admin Secret. */
async function tenantControlPlane(name: string, labels: Record<string, string>): Promise<void> {
  await mgmt.client.create(tcpPath(), {
    apiVersion: "kamaji.clastix.io/v1alpha1",
    kind: "TenantControlPlane",
    metadata: { name, namespace: ns, labels: { [SHARD]: ns, ...labels } },
    spec: { kubernetes: { version: "v1.36.3" } },
  });
  await setPlaneStatus(name, "Ready");
}

async function setPlaneStatus(name: string, status: string): Promise<void> {
  await mgmt.client.patch(`${tcpPath(name)}/status`, "merge", {
    status: {
      kubernetesResources: { version: { version: "v1.36.3", status } },
      kubeconfig: { admin: { secretName: "tenant1-admin-kubeconfig" } },
    },
  });
}

beforeAll(async () => {
  ns = await testNamespace(mgmt.client, "fleetdisc");
  storage = makeWorkDir("fleetdisc-storage-");
  await mgmt.client.create(pathOf(USED_KINDS.Secret, ns), {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "tenant1-admin-kubeconfig", namespace: ns },
    data: { "admin.conf": await tenant1AdminConf() },
  });
  await tenantControlPlane("tenant1", { "topology.kubernetes.io/region": "eu-west-1" });
  startController({ namespace: ns, shard: ns, storagePath: storage });
}, 120_000);

afterAll(() => rmSync(storage, { recursive: true, force: true }));

describe("fleet clusters discovered from Kamaji", () => {
  it("makes a Cluster of a TenantControlPlane, its labels and admin kubeconfig, Ready with what the plane runs", async () => {
    const { c } = await clusterReady("tenant1", "True", 120_000);
    expect(c.metadata.labels).toMatchObject({
      [SHARD]: ns,
      "topology.kubernetes.io/region": "eu-west-1",
      "fleet.flotilla.dev/discovered-from": "kamaji",
    });
    expect(c.spec.kubeConfig).toEqual({ secretRef: { name: "tenant1-admin-kubeconfig", key: "admin.conf" } });
    expect(c.metadata.ownerReferences).toMatchObject([
      { kind: "TenantControlPlane", name: "tenant1", controller: true },
    ]);
    // What the real tenant1 plane answers.
    const version = await planeCluster("tenant1").client.get<{ gitVersion: string }>("/version");
    expect(c.status?.kubernetesVersion).toBe(version.gitVersion);
    expect(ready(c)?.reason).toBe("ClusterReady");
    expect(Date.parse(c.status!.lastProbeTime!)).toBeGreaterThan(Date.now() - 5 * 60_000);
    // flotilla get clusters, in Flux's table style with the version where Flux shows a revision.
    const got = await runCli(["get", "clusters", "-n", ns, "--kubeconfig", plane("management").kubeconfig]);
    expect(got.code).toBe(0);
    const [header, row] = got.stdout.split("\n").map((l) => l.split("\t").map((x) => x.trim()));
    expect(header).toEqual(["NAME", "VERSION", "SUSPENDED", "READY", "MESSAGE"]);
    expect(row).toEqual(["tenant1", version.gitVersion, "False", "True", expect.stringMatching(/^Kubernetes v/), ""]);
  }, 180_000);

  it("a plane Kamaji reports not Ready makes its Cluster not Ready, naming it; Ready again, so is the Cluster", async () => {
    await setPlaneStatus("tenant1", "NotReady");
    const { r: down } = await clusterReady("tenant1", "False", 90_000);
    expect(down.reason).toBe("TenantControlPlaneNotReady");
    expect(down.message).toContain(`TenantControlPlane ${ns}/tenant1 is not Ready`);
    await setPlaneStatus("tenant1", "Ready");
    await clusterReady("tenant1", "True", 90_000);
  }, 200_000);

  it("a deleted TenantControlPlane takes its Cluster with it", async () => {
    await tenantControlPlane("short-lived", {});
    await eventually("the second Cluster", async () => getCluster("short-lived"), 90_000);
    await mgmt.client.delete(tcpPath("short-lived"));
    await eventually(
      "the Cluster gone with its plane",
      async () => (await getCluster("short-lived")) === undefined,
      120_000,
    );
    expect(await getCluster("tenant1")).toBeDefined();
  }, 240_000);

  it("a Cluster whose kubeconfig reaches nothing is not Ready, saying the cluster does not answer", async () => {
    // tenant1's own credentials, pointed at a port nothing listens on.
    const kubeconfig = Buffer.from(await tenant1AdminConf(), "base64")
      .toString("utf8")
      .replace(/server: https:\/\/127\.0\.0\.1:\d+/, "server: https://127.0.0.1:1");
    expect(kubeconfig).toContain("server: https://127.0.0.1:1\n");
    await mgmt.client.create(pathOf(USED_KINDS.Secret, ns), {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "nowhere-kubeconfig", namespace: ns },
      stringData: { value: kubeconfig },
    });
    await mgmt.client.create(pathOf(SERVED_KINDS.Cluster, ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name: "nowhere", namespace: ns, labels: { [SHARD]: ns } },
      spec: { kubeConfig: { secretRef: { name: "nowhere-kubeconfig" } }, interval: "5s" },
    });
    const { r } = await clusterReady("nowhere", "False", 90_000);
    expect(r.reason).toBe("ClusterUnreachable");
    expect(r.message).toContain("does not answer");
  }, 120_000);

  it("create cluster writes the kubeconfig Secret and a Cluster that becomes Ready; --export never prints the kubeconfig", async () => {
    const args = [
      "--label",
      `${SHARD}=${ns},region=eu-central-1`,
      "-n",
      ns,
      "--kubeconfig",
      plane("management").kubeconfig,
    ];
    const exported = await runCli([
      "create",
      "cluster",
      "tenant2",
      "--cluster-kubeconfig",
      plane("tenant2").kubeconfig,
      ...args,
      "--export",
    ]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("kind: Cluster");
    expect(exported.stdout).not.toMatch(/Secret|client-key-data|client-certificate-data|token/);
    expect(await getCluster("tenant2")).toBeUndefined(); // --export writes nothing
    const created = await runCli([
      "create",
      "cluster",
      "tenant2",
      "--cluster-kubeconfig",
      plane("tenant2").kubeconfig,
      ...args,
    ]);
    expect(created.stderr).toContain("✔ cluster tenant2 is ready: Kubernetes v");
    expect(created.code).toBe(0);
    expect(created.stdout + created.stderr).not.toMatch(/client-key-data|BEGIN/);
    const c = await getCluster("tenant2");
    expect(c!.metadata.labels).toMatchObject({ region: "eu-central-1" });
    const secret = await mgmt.client.get<{ data: Record<string, string> }>(
      pathOf(USED_KINDS.Secret, ns, "tenant2-kubeconfig"),
    );
    expect(Buffer.from(secret.data.value!, "base64").toString("utf8")).toContain("kind: Config");
    // Bad input loses nothing: an unreadable kubeconfig is refused before anything is written.
    const bad = await runCli([
      "create",
      "cluster",
      "broken",
      "--cluster-kubeconfig",
      "/nonexistent/kubeconfig",
      ...args,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--cluster-kubeconfig /nonexistent/kubeconfig");
    expect(await getCluster("broken")).toBeUndefined();
  }, 180_000);
});
