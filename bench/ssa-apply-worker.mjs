#!/usr/bin/env node
// One apply of a JSON List with flotilla's resource manager, as its own process (see ssa-apply.bench.mjs).
// Prints the change-set summary. Client-side rate limiting is off here, as kubectl has none for apply;
// the API server's priority and fairness is what limits both.
import { readFileSync } from "node:fs";
import { closeAllConnections, setDefaultRateLimit } from "../dist/kube/client.js";
import { Cluster } from "../dist/kube/cluster.js";
import { endpointFromKubeconfigFile } from "../dist/kube/kubeconfig.js";
import { ResourceManager } from "../dist/ssa/index.js";

const [kubeconfig, file] = process.argv.slice(2);
setDefaultRateLimit({ qps: 0, burst: 0 });
const cluster = new Cluster(endpointFromKubeconfigFile(kubeconfig));
const manager = new ResourceManager(cluster, {
  fieldManager: "flotilla-bench",
  owner: { group: "kustomize.toolkit.fluxcd.io", name: "bench", namespace: "flux-system" },
  ...(process.env.FLOTILLA_BENCH_CONCURRENCY ? { concurrency: Number(process.env.FLOTILLA_BENCH_CONCURRENCY) } : {}),
});
const changeSet = await manager.apply(JSON.parse(readFileSync(file, "utf8")).items);
const counts = {};
for (const e of changeSet) counts[e.action] = (counts[e.action] ?? 0) + 1;
console.log(JSON.stringify(counts));
await closeAllConnections();
