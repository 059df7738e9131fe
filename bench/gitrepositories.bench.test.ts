// Benchmark: 200 GitRepositories on one local git smart-HTTP server, reconciled by the
// GitRepository controller (concurrency 4) against a one-plane local fleet:
//   1. time from creating them to all Ready (each fetches and stores one artifact);
//   2. idle polling: every object reconciled again with nothing new upstream — the steady state of
//      an hour of polling compressed into a few cycles — reporting git and apiserver requests per
//      cycle and the process's RSS.
// usage: npm run bench:gitrepositories   (FLOTILLA_BENCH_REPOS=200 FLOTILLA_BENCH_CYCLES=3)
import { rmSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { afterAll, it } from "vitest";
import { gitRepositoryCrd } from "../src/api/source/git-repository.js";
import { GitRepositoryReconciler } from "../src/controllers/gitrepository/reconciler.js";
import { closeAllConnections, KubeClient, requestCounts } from "../src/kube/client.js";
import { Cluster } from "../src/kube/cluster.js";
import { endpointFromKubeconfigFile } from "../src/kube/kubeconfig.js";
import type { KubeObject } from "../src/api/meta/object.js";
import { downFleet, upFleet } from "../src/local/index.js";
import { Controller } from "../src/runtime/controller.js";
import { REQUESTED_AT_ANNOTATION } from "../src/api/meta/annotations.js";
import { EventRecorder } from "../src/runtime/events.js";
import { createLogger } from "../src/runtime/logger.js";
import { startArtifactServer } from "../src/sources/artifact/server.js";
import { Storage } from "../src/sources/artifact/storage.js";
import { startGitHttpServer } from "../test/support/git-http-server.js";
import { makeWorkDir } from "../src/util/work-dir.js";

const N = Number(process.env.FLOTILLA_BENCH_REPOS ?? 200);
const CYCLES = Number(process.env.FLOTILLA_BENCH_CYCLES ?? 3);
const fleetDir = makeWorkDir("flotilla-bench-git-");
afterAll(async () => {
  await downFleet(fleetDir).catch(() => {});
  rmSync(fleetDir, { recursive: true, force: true });
});

const totalRequests = () => [...requestCounts.values()].reduce((a, b) => a + b, 0);

it(`${N} GitRepositories: creation to all Ready, then idle polling cycles`, async () => {
  const fleet = await upFleet({ dir: fleetDir, tenants: 0 });
  const cluster = new Cluster(endpointFromKubeconfigFile(fleet.state.planes[0]!.kubeconfig));
  await cluster.apply(gitRepositoryCrd() as unknown as KubeObject, "bench", { force: true });
  const kind = { group: "source.toolkit.fluxcd.io", version: "v1", kind: "GitRepository" };
  await cluster.discovery.waitForMapping(kind, 10_000);
  await cluster.client.create("/api/v1/namespaces", { metadata: { name: "bench" } });

  const git = await startGitHttpServer();
  const urls: string[] = [];
  for (let i = 0; i < N; i++) {
    const repo = await git.createRepo(`app-${i}`);
    await repo.commit({ "deploy/app.yaml": `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-${i}\n` }, "init");
    urls.push(repo.url);
  }
  const storage = new Storage(makeWorkDir("flotilla-bench-storage-"), "http://127.0.0.1:0");
  const artifacts = await startArtifactServer(storage, "127.0.0.1", 0);
  (storage as { baseUrl: string }).baseUrl = artifacts.url;
  const log = createLogger({ level: "error", write: () => {} });
  const controller = new Controller({
    name: "gitrepository",
    kind,
    cluster,
    log,
    namespace: "bench",
    concurrency: 4,
    reconciler: new GitRepositoryReconciler(
      cluster,
      storage,
      new EventRecorder(cluster.client, "source-controller", log),
    ),
  });
  await controller.start();

  const path = "/apis/source.toolkit.fluxcd.io/v1/namespaces/bench/gitrepositories";
  type GR = {
    metadata: { name: string };
    status?: { lastHandledReconcileAt?: string; conditions?: { type: string; status: string }[] };
  };
  const list = async () => (await new KubeClient(cluster.client.endpoint).get<{ items: GR[] }>(path)).items;
  const readyCount = async () =>
    (await list()).filter((o) => o.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True")).length;

  const t0 = performance.now();
  await Promise.all(
    urls.map((url, i) =>
      cluster.client.create(path, {
        apiVersion: "source.toolkit.fluxcd.io/v1",
        kind: "GitRepository",
        metadata: { name: `app-${i}` },
        spec: { url, interval: "60m", ref: { branch: "main" } },
      }),
    ),
  );
  while ((await readyCount()) < N) await new Promise((r) => setTimeout(r, 200));
  const readySeconds = (performance.now() - t0) / 1000;
  const rssAfterReady = process.memoryUsage().rss;

  const cycles: { seconds: number; git: number; gitFetches: number; api: number; rss: number }[] = [];
  for (let c = 0; c < CYCLES; c++) {
    git.resetCounters();
    const apiBefore = totalRequests();
    const at = `cycle-${c}-${Date.now()}`;
    const t = performance.now();
    await Promise.all(
      urls.map((_, i) =>
        cluster.client.patch(`${path}/app-${i}`, "merge", {
          metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } },
        }),
      ),
    );
    while ((await list()).some((o) => o.status?.lastHandledReconcileAt !== at))
      await new Promise((r) => setTimeout(r, 200));
    cycles.push({
      seconds: (performance.now() - t) / 1000,
      git: git.requests.total,
      gitFetches: git.requests.fetch,
      api: totalRequests() - apiBefore,
      rss: process.memoryUsage().rss,
    });
  }
  await controller.stop();
  await Promise.all([git.close(), artifacts.close()]);
  await closeAllConnections();

  const MiB = 1024 * 1024;
  const lines = [
    `# GitRepository benchmark — ${new Date().toISOString()}`,
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`,
    `command: npm run bench:gitrepositories (FLOTILLA_BENCH_REPOS=${N} FLOTILLA_BENCH_CYCLES=${CYCLES})`,
    "",
    `creation to all ${N} Ready: ${readySeconds.toFixed(1)} s (${(N / readySeconds).toFixed(1)} repositories/s), RSS ${Math.round(rssAfterReady / MiB)} MiB`,
    "",
    "| idle cycle | duration | git HTTP requests | of which fetches | apiserver requests (incl. the benchmark's own) | RSS |",
    "|---|---|---|---|---|---|",
    ...cycles.map(
      (c, i) =>
        `| ${i + 1} | ${c.seconds.toFixed(1)} s | ${c.git} (${(c.git / N).toFixed(1)} per repository) | ${c.gitFetches} | ${c.api} (${(c.api / N).toFixed(1)} per repository) | ${Math.round(c.rss / MiB)} MiB |`,
    ),
  ];
  console.log(lines.join("\n"));
});
