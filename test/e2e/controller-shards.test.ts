// Flux's sharding model, as the chart deploys it: controllers in ONE namespace, each with its own
// --watch-label-selector, each elect a leader of their own (the Lease named after the selector, as
// Flux's GenerateID names it) and reconcile only the objects their selector matches; `flotilla check`
// reports every shard's lease.
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { startController } from "../support/controller-process.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { startGitHttpServer } from "../support/git-http-server.js";
import { readFileSync } from "node:fs";
import { SERVED_KINDS, USED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { leaderElectionId } from "../../src/runtime/leader-election.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const cluster = planeCluster("management");
const git = await startGitHttpServer();
afterAll(() => git.close());

type Lease = { spec: { holderIdentity?: string } };
type Repo = { status?: { artifact?: { url: string; revision: string } } };

describe("sharded controllers in one namespace", () => {
  it("each lead their own lease and reconcile only their shard's objects; check lists both leases", async () => {
    const ns = await testNamespace(cluster.client, "shards");
    const shards = [`${ns}-a`, `${ns}-b`];
    const controllers = shards.map((shard) =>
      startController({ namespace: ns, shard, storagePath: makeWorkDir("flotilla-shard-") }),
    );
    try {
      const leases = shards.map((s) => leaderElectionId(`flotilla.dev/shard=${s}`));
      expect(new Set(leases).size).toBe(2);
      const holders = await eventually(
        "both shards to lead",
        async () => {
          const h = await Promise.all(
            leases.map((name) =>
              cluster.client
                .get<Lease>(`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/${name}`)
                .then((l) => l.spec.holderIdentity ?? "")
                .catch(() => ""),
            ),
          );
          return h.every(Boolean) ? h : undefined;
        },
        60_000,
      );
      expect(holders.map((h) => Number(h.split("_").pop()))).toEqual(controllers.map((c) => c.child.pid));

      // Each shard's artifact server, as its log says: an object's artifact URL names who reconciled it.
      const servers = await Promise.all(
        controllers.map((c) =>
          eventually("the artifact server", async () => {
            const line = c.logs.find((l) => l.msg === "controllers started");
            return line ? String(line.artifactServer) : undefined;
          }),
        ),
      );
      const repo = await git.createRepo(`shards-${ns}`);
      const sha = await repo.commit({ "a.yaml": "a: 1\n" }, "one");
      for (const shard of shards)
        await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
          apiVersion: "source.toolkit.fluxcd.io/v1",
          kind: "GitRepository",
          metadata: { name: shard, namespace: ns, labels: { "flotilla.dev/shard": shard } },
          spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
        });
      for (const [i, shard] of shards.entries()) {
        const artifact = await eventually(
          `${shard}'s artifact`,
          async () => {
            const r = await cluster.client.get<Repo>(
              `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/${shard}`,
            );
            return r.status?.artifact?.revision === `main@sha1:${sha}` ? r.status.artifact : undefined;
          },
          90_000,
        );
        expect(artifact.url.startsWith(`${servers[i]}/`), `${artifact.url} served by ${servers[i]}`).toBe(true);
      }

      const check = await runCli(["check", "-n", ns, "--kubeconfig", plane("management").kubeconfig]);
      for (const [i, name] of leases.entries())
        expect(check.stderr).toContain(`✔ flotilla controller (lease ${name}): leader ${holders[i]} renewed`);
    } finally {
      for (const c of controllers) c.child.kill("SIGTERM");
      await Promise.all(controllers.map((c) => c.exited()));
    }
  });

  it("a shard's watches never pull in another shard's object: a TenantControlPlane change re-probes only the shard's own Cluster", async () => {
    const ns = await testNamespace(cluster.client, "shardtcp");
    const shard = `${ns}-a`;
    const tcps = ["mine", "theirs"];
    const uids: Record<string, string> = {};
    for (const name of tcps) {
      const tcp = await cluster.client.create<{ metadata: { uid: string } }>(
        pathOf(USED_KINDS.TenantControlPlane, ns),
        { apiVersion: "kamaji.clastix.io/v1alpha1", kind: "TenantControlPlane", metadata: { name }, spec: {} },
      );
      uids[name] = tcp.metadata.uid;
    }
    const tcpStatus = (name: string, status: string) =>
      cluster.client.patch(`${pathOf(USED_KINDS.TenantControlPlane, ns, name)}/status`, "merge", {
        status: { kubernetesResources: { version: { status } } },
      });
    for (const name of tcps) await tcpStatus(name, "Ready");
    await cluster.client.create(pathOf(USED_KINDS.Secret, ns), {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "tenant1-admin-kubeconfig" },
      stringData: { "admin.conf": readFileSync(plane("tenant1").kubeconfig, "utf8") },
    });
    for (const name of tcps)
      await cluster.client.create(pathOf(SERVED_KINDS.Cluster, ns), {
        apiVersion: "fleet.flotilla.dev/v1alpha1",
        kind: "Cluster",
        metadata: {
          name,
          ...(name === "mine" ? { labels: { "flotilla.dev/shard": shard } } : {}),
          ownerReferences: [
            {
              apiVersion: "kamaji.clastix.io/v1alpha1",
              kind: "TenantControlPlane",
              name,
              uid: uids[name],
              controller: true,
            },
          ],
        },
        spec: { kubeConfig: { secretRef: { name: "tenant1-admin-kubeconfig", key: "admin.conf" } }, interval: "10m" },
      });
    const controller = startController({
      namespace: ns,
      shard,
      storagePath: makeWorkDir("flotilla-shard-"),
      leadingArgs: ["--kamaji-discovery"],
    });
    type FleetCluster = { status?: { conditions?: { type: string; status: string }[] } };
    const writable = (name: string) =>
      cluster.client
        .get<FleetCluster>(pathOf(SERVED_KINDS.Cluster, ns, name))
        .then((c) => c.status?.conditions?.find((x) => x.type === "Writable")?.status);
    try {
      await eventually(
        "the shard's Cluster probed",
        async () => ((await writable("mine")) === "True" ? true : undefined),
        90_000,
      );
      // The other shard's TenantControlPlane changes first; then ours, twice: each of ours observed is a
      // later pass of the watch than the change of theirs.
      await tcpStatus("theirs", "WriteLimited");
      await tcpStatus("mine", "WriteLimited");
      await eventually(
        "WriteLimited seen",
        async () => ((await writable("mine")) === "False" ? true : undefined),
        60_000,
      );
      await tcpStatus("mine", "Ready");
      await eventually("writable again", async () => ((await writable("mine")) === "True" ? true : undefined), 60_000);
      const theirs = await cluster.client.get<FleetCluster>(pathOf(SERVED_KINDS.Cluster, ns, "theirs"));
      expect(theirs.status?.conditions ?? []).toEqual([]);
    } finally {
      controller.child.kill("SIGTERM");
      await controller.exited();
    }
  });
});
