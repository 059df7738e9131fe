// Flux's sharding model, as the chart deploys it: controllers in ONE namespace, each with its own
// --watch-label-selector, each elect a leader of their own (the Lease named after the selector, as
// Flux's GenerateID names it) and reconcile only the objects their selector matches; `flotilla check`
// reports every shard's lease.
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { startController } from "../support/controller-process.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { startGitHttpServer } from "../support/git-http-server.js";
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
});
