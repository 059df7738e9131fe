// `flotilla controller` as real processes: two replicas elect one leader on a Lease; killing the
// leader (SIGKILL, no chance to release) hands over once its lease has expired, and the new leader
// reconciles. --watch-label-selector keeps these replicas to this test's objects.
import { describe, expect, it } from "vitest";
import { LEASE_SECONDS, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { startGitHttpServer } from "../support/git-http-server.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { leaderElectionId } from "../../src/runtime/leader-election.js";

const cluster = planeCluster("management");
const startReplica = (ns: string, shard: string) =>
  startController({ namespace: ns, shard, storagePath: makeWorkDir("flotilla-replica-") }).child;

describe("flotilla controller processes", () => {
  it("elect exactly one leader, hand over after the lease expires when it is killed, and the new leader reconciles", async () => {
    const ns = await testNamespace(cluster.client, "replicas");
    const shard = ns;
    const a = startReplica(ns, shard);
    const b = startReplica(ns, shard);
    const leasePath = `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/${leaderElectionId(`flotilla.dev/shard=${shard}`)}`;
    const holder = async () =>
      (await cluster.client.get<{ spec: { holderIdentity?: string } }>(leasePath)).spec.holderIdentity ?? "";
    const first = await eventually("a leader", async () => (await holder()) || undefined, 60_000);
    const leaderPid = Number(first.split("_").pop());
    expect([a.pid, b.pid]).toContain(leaderPid);
    const [leader, follower] = leaderPid === a.pid ? [a, b] : [b, a];

    const killedAt = Date.now();
    leader.kill("SIGKILL");
    const next = await eventually(
      "the other replica to take over",
      async () => {
        const h = await holder();
        return h && h !== first ? h : undefined;
      },
      120_000,
    );
    expect(Number(next.split("_").pop())).toBe(follower.pid);
    // The follower waited for the dead leader's lease to expire (less one retry period for the last renewal).
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual((LEASE_SECONDS - 1) * 1000 - 500);

    const git = await startGitHttpServer();
    try {
      const repo = await git.createRepo("replicated");
      const sha = await repo.commit({ "a.yaml": "a: 1\n" }, "one");
      await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
        apiVersion: "source.toolkit.fluxcd.io/v1",
        kind: "GitRepository",
        metadata: { name: "replicated", namespace: ns, labels: { "flotilla.dev/shard": shard } },
        spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
      });
      await eventually(
        "the new leader to reconcile",
        async () => {
          const gr = await cluster.client.get<{ status?: { artifact?: { revision: string } } }>(
            `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/replicated`,
          );
          return gr.status?.artifact?.revision === `main@sha1:${sha}`;
        },
        30_000,
      );
    } finally {
      await git.close();
    }
  });
});
