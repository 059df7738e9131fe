// For bench/sharding.bench.mjs: one configuration — k real `flotilla controller` processes laid out as
// `flotilla install --shards` lays them out (the main one with --watch-label-selector=!<key>, shard i with
// <key> in (shard<i>)) — on the fleet's management plane: N Kustomizations created in a namespace of
// their own, object i labelled for process i mod k and applied to tenant plane i mod T through the
// tenant's Kamaji admin kubeconfig Secret; timed to all Ready, with each process's CPU (children
// included), peak RSS (VmHWM) and own requests to the management plane (an identity and FlowSchemas per
// process, support/vs-flux-plane.mjs), and the requests the tenant planes served in the window.
import { mkdtempSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { cpuSeconds, isReady, procStatus, until } from "./controller-bench.mjs";
import { cpuWithChildren, startProcess, untilHealthy } from "./flux-controllers.mjs";
import { createFlowSchemas, delta, issueIdentity, removeRun, scrape, untilCounted } from "./vs-flux-plane.mjs";

const { freePort } = await import("../../dist/local/ports.js");
const { KubeClient } = await import("../../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../../dist/kube/kubeconfig.js");
const { adminKubeconfigSecretName, TENANTS_NAMESPACE } = await import("../../dist/local/index.js");

export const SHARD_KEY = "sharding.fluxcd.io/key";
const KS = (ns) => `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations`;
const GR = (ns) => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`;
const SECRETS = (ns) => `/api/v1/namespaces/${ns}/secrets`;

/** Process i of k: the main one (i = 0) takes what carries no shard key, shard i what says shard<i>. */
export const selectorOf = (i) => (i === 0 ? `!${SHARD_KEY}` : `${SHARD_KEY} in (shard${i})`);
export const processName = (i) => (i === 0 ? "main" : `shard${i}`);

/** Requests the tenant planes' global-default flow schema dispatched: the controllers' (admin.conf) only. */
async function tenantRequests(tenants) {
  let total = 0;
  for (const t of tenants) {
    const text = await t.client.get("/metrics");
    for (const line of text.split("\n"))
      if (
        line.startsWith("apiserver_flowcontrol_dispatched_requests_total{") &&
        line.includes('flow_schema="global-default"')
      )
        total += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return total;
}

/** ctx: n, k, mgmt {client, plane, procs}, tenants [{name, client}], url, work, limits, timeoutMs, later. */
export async function runConfiguration(ctx) {
  const { n, k, mgmt, tenants, work } = ctx;
  const admin = mgmt.client;
  const ns = `sharding-${k}`;
  const target = `apps-${k}`;
  const res = {
    k,
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
  };
  await admin.create("/api/v1/namespaces", { metadata: { name: ns } });
  // kubeConfig.secretRef is read in the Kustomization's own namespace: the tenants' Secrets are copied in.
  for (const t of tenants) {
    const s = await admin.get(`${SECRETS(TENANTS_NAMESPACE)}/${adminKubeconfigSecretName(t.name)}`);
    await admin.create(SECRETS(ns), { metadata: { name: s.metadata.name }, type: s.type, data: s.data });
    await t.client.create("/api/v1/namespaces", { metadata: { name: target } });
  }
  const procs = [];
  const forget = ctx.later(() => Promise.all(procs.map((p) => p.stop())));
  try {
    for (let i = 0; i < k; i++) {
      const tool = `sh${k}p${i}`;
      await createFlowSchemas(admin, tool);
      const kubeconfig = issueIdentity({
        ...mgmt.plane,
        user: `vs-flux-${tool}`,
        group: `vs-flux:${tool}`,
        file: join(work, `${tool}.kubeconfig`),
      });
      const healthPort = await freePort();
      const args = [
        "bin/flotilla.js",
        "controller",
        ...["--kubeconfig", kubeconfig, "--runtime-namespace", "flux-system"],
        `--concurrent=${ctx.limits.concurrent}`,
        `--kube-api-qps=${ctx.limits.qps}`,
        `--kube-api-burst=${ctx.limits.burst}`,
        "--log-level=error",
        "--enable-leader-election=false",
        "--kamaji-discovery=false",
        `--watch-label-selector=${selectorOf(i)}`,
        `--storage-path=${mkdtempSync(join(work, `${tool}-storage-`))}`,
        `--storage-addr=127.0.0.1:${await freePort()}`,
        `--health-addr=127.0.0.1:${healthPort}`,
        // The main process installs the CRDs before the shards start.
        ...(i === 0 ? ["--install-crds"] : []),
      ];
      const env = { TMPDIR: mkdtempSync(join(work, `${tool}-tmp-`)) };
      const p = { ...startProcess(processName(i), process.execPath, args, env), healthPort, tool };
      procs.push(p);
      await untilHealthy([p], 120_000);
      await untilCounted(admin, new KubeClient(endpointFromKubeconfigFile(kubeconfig)), tool);
    }
    await admin.create(GR(ns), {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "apps" },
      spec: { url: ctx.url, interval: "60m", ref: { branch: "main" } },
    });
    await until("the GitRepository Ready", async () => isReady(await admin.get(`${GR(ns)}/apps`)), 180_000, 250);
    const planeBefore = mgmt.procs.map(([, pid]) => cpuSeconds(pid));
    const before = await scrape(admin);
    const tenantBefore = await tenantRequests(tenants);
    const cpuBefore = procs.map((p) => cpuWithChildren(p.pid));
    const t0 = performance.now();
    for (let at = 0; at < n; at += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, n - at) }, (_, j) =>
          admin.create(KS(ns), kustomization(at + j, k, tenants, target)),
        ),
      );
    res.created = (performance.now() - t0) / 1000;
    // Each process's own finish: when every object labelled for it is Ready.
    res.shardSeconds = procs.map(() => undefined);
    let ready = 0;
    try {
      await until(
        `${n} Kustomizations Ready`,
        async () => {
          const items = (await admin.get(KS(ns))).items;
          ready = items.filter(isReady).length;
          const now = (performance.now() - t0) / 1000;
          for (let i = 0; i < k; i++) {
            const mine = items.filter((o) => Number(o.metadata.name.slice(4)) % k === i);
            if (res.shardSeconds[i] === undefined && mine.length === Math.ceil((n - i) / k) && mine.every(isReady))
              res.shardSeconds[i] = now;
          }
          return ready === n;
        },
        ctx.timeoutMs,
      );
      res.seconds = (performance.now() - t0) / 1000;
    } catch {
      res.error = `timed out after ${ctx.timeoutMs / 60_000} min: ${ready}/${n} Ready`;
      console.error(`sharding: ${k} processes: ${res.error}\n${procs.map((p) => p.tail()).join("\n")}`);
    }
    res.cpu = procs.map((p, i) => cpuWithChildren(p.pid) - cpuBefore[i]);
    res.rss = procs.map((p) => procStatus(p.pid, "VmHWM"));
    res.planeCpu = mgmt.procs.reduce((a, [, pid], i) => a + cpuSeconds(pid) - planeBefore[i], 0);
    const after = await scrape(admin);
    if (after.start !== before.start) res.error = "the management apiserver restarted during the run";
    const flow = delta(before.flow, after.flow);
    res.requests = procs.map((p) =>
      [...flow].filter(([key]) => key.startsWith(`${p.tool} `)).reduce((a, [, v]) => a + v, 0),
    );
    res.tenantRequests = (await tenantRequests(tenants)) - tenantBefore;
  } catch (e) {
    res.error = e.message.split("\n")[0];
    console.error(`sharding: ${k} processes: ${e.message}\n${procs.map((p) => p.tail()).join("\n")}`);
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    forget();
  }
  res.procs = procs.map((p) => p.name);
  if (!ctx.last) {
    await removeRun(admin, [ns], [KS, GR]);
    for (const t of tenants) await t.client.delete(`/api/v1/namespaces/${target}`).catch(() => {});
  }
  return res;
}

function kustomization(i, k, tenants, target) {
  const shard = i % k;
  const tenant = tenants[i % tenants.length].name;
  return {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: `app-${i}`, ...(shard ? { labels: { [SHARD_KEY]: `shard${shard}` } } : {}) },
    spec: {
      ...{ interval: "60m", retryInterval: "5m", prune: true, path: `./apps/app-${i}`, targetNamespace: target },
      sourceRef: { kind: "GitRepository", name: "apps" },
      kubeConfig: { secretRef: { name: adminKubeconfigSecretName(tenant), key: "admin.conf" } },
    },
  };
}
