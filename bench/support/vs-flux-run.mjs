// For bench/vs-flux.bench.mjs: one controller run (flotilla's or Flux's) of one shape on the shape's plane:
// its namespaces, identity and controllers; the source Ready; then N objects created and timed to all Ready,
// with the controllers' CPU, peak memory and requests over that window; then the run is removed.
import { mkdtempSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { cpuSeconds, isReady, procStatus, until } from "./controller-bench.mjs";
import * as fc from "./flux-controllers.mjs";
import { delta, issueIdentity, removeRun, scrape, untilCounted } from "./vs-flux-plane.mjs";

const { freePort } = await import("../../dist/local/ports.js");
const { KubeClient } = await import("../../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../../dist/kube/kubeconfig.js");

export const API = {
  ks: (ns) => `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations`,
  hr: (ns) => `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases`,
  gr: (ns) => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`,
  hrepo: (ns) => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/helmrepositories`,
  hc: (ns) => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/helmcharts`,
  oci: (ns) => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/ocirepositories`,
};
const HELM_LAYER = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";

/**
 * ctx: kind, n, admin, plane, flux, work, url, tag, source, planeProcs, last, bin, limits, timeoutMs (the wait for
 * all Ready: past it the run is reported with res.capped and res.ready of n), later, progress (optional).
 */
export async function runTool(tool, ctx, r) {
  const { kind, n, admin, plane, flux, work } = ctx;
  const ns = `${tool}-run-${r}`;
  const target = `${tool}-apps-${r}`;
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  for (const name of [ns, target]) await admin.create("/api/v1/namespaces", { metadata: { name } });
  const kubeconfig = issueIdentity({
    ...plane,
    user: `vs-flux-${tool}-${r}`,
    group: `vs-flux:${tool}`,
    file: join(work, `${tool}.kubeconfig`),
  });
  const storage = mkdtempSync(join(work, `${tool}-storage-`));
  // Both controllers' scratch files (Flux's kustomize-controller unpacks each artifact) beside the plane.
  const env = { TMPDIR: mkdtempSync(join(work, `${tool}-tmp-`)) };
  const port = async () => ({ healthPort: await freePort(), metricsPort: await freePort() });
  const ports = { source: await port(), other: await port(), storagePort: await freePort() };
  const o = { kubeconfig, namespace: ns, storage, ports, env, ...ctx.limits };
  if (tool === "flux") fc.applyFluxCrds(join(ctx.bin, "kubectl"), plane.superAdminKubeconfig, flux.crds);
  const procs =
    tool === "flux" ? fc.startFlux({ ...o, other: flux.other, binaries: flux.binaries }) : fc.startFlotilla(o);
  const forget = ctx.later(() => Promise.all(procs.map((p) => p.stop())));
  const res = { tool, load, procs: procs.map((p) => p.name) };
  let sampler;
  try {
    ctx.progress?.(`${n} ${kind}: ${tool} starting`);
    await fc.untilHealthy(procs);
    await untilCounted(admin, new KubeClient(endpointFromKubeconfigFile(kubeconfig)), tool);
    const ociSpec = {
      url: ctx.url,
      interval: "60m",
      ref: { tag: ctx.tag },
      insecure: true,
      ...(kind === "helmreleases" ? { layerSelector: { mediaType: HELM_LAYER, operation: "copy" } } : {}),
    };
    const path = kind === "kustomizations" ? API.ks(ns) : API.hr(ns);
    const [srcPath, srcKind, srcSpec] =
      ctx.source === "oci"
        ? [API.oci(ns), "OCIRepository", ociSpec]
        : kind === "kustomizations"
          ? [API.gr(ns), "GitRepository", { url: ctx.url, interval: "60m", ref: { branch: "main" } }]
          : [API.hrepo(ns), "HelmRepository", { url: ctx.url, interval: "60m" }];
    await until(`${kind} served`, () => admin.get(path).then(() => true), 60_000, 250);
    await admin.create(srcPath, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: srcKind,
      metadata: { name: "apps" },
      spec: srcSpec,
    });
    await until(`the ${srcKind} Ready`, async () => isReady(await admin.get(`${srcPath}/apps`)), 120_000, 250);
    await new Promise((r) => setTimeout(r, 2000)); // settle
    const planeProcs = ctx.planeProcs;
    const planeBefore = planeProcs.map(([, pid]) => cpuSeconds(pid));
    const before = await scrape(admin);
    const cpuBefore = procs.map((p) => fc.cpuWithChildren(p.pid));
    res.treeRss = 0;
    sampler = setInterval(() => (res.treeRss = Math.max(res.treeRss, fc.treeRss(procs.map((p) => p.pid)))), 250);
    const t0 = performance.now();
    for (let at = 0; at < n; at += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, n - at) }, (_, k) =>
          admin.create(path, object(kind, at + k, target, ctx.source)),
        ),
      );
    res.created = (performance.now() - t0) / 1000;
    ctx.progress?.(`${n} ${kind}: ${tool}: ${n} created in ${res.created.toFixed(1)} s, waiting for all Ready`);
    // Stalled=True is terminal (no retry left: Flux's default install strategy): stop waiting once the
    // objects not Ready are all Stalled, and say why.
    let ready = 0;
    let stalled = [];
    const isStalled = (o) => o.status?.conditions?.some((c) => c.type === "Stalled" && c.status === "True");
    try {
      await until(
        `${n} ${kind} Ready`,
        async () => {
          const items = (await admin.get(path)).items;
          ready = items.filter(isReady).length;
          stalled = items.filter((o) => !isReady(o) && isStalled(o));
          return ready === n || (items.length === n && ready + stalled.length === n);
        },
        ctx.timeoutMs,
      );
      res.seconds = (performance.now() - t0) / 1000;
    } catch {
      res.capped = true;
      res.error = `timed out after ${ctx.timeoutMs / 1000} s`;
    }
    res.ready = ready;
    ctx.progress?.(`${n} ${kind}: ${tool}: ${ready}/${n} Ready${res.seconds ? ` in ${res.seconds.toFixed(1)} s` : ""}`);
    if (ready < n) {
      const why = stalled[0]?.status.conditions.find((c) => c.type !== "Ready" && c.status === "False")?.message;
      res.error = `${res.error ?? "gave up"}: ${ready}/${n} Ready, ${stalled.length} Stalled${why ? ` (e.g. ${stalled[0].metadata.name}: ${why})` : ""}`;
      console.error(`vs-flux: ${tool}: ${res.error}\n${procs.map((p) => p.tail()).join("\n")}`);
    }
    clearInterval(sampler);
    res.cpu = procs.map((p, i) => fc.cpuWithChildren(p.pid) - cpuBefore[i]);
    res.rss = procs.map((p) => procStatus(p.pid, "VmHWM"));
    res.planeCpu = planeProcs.reduce((a, [, pid], i) => a + cpuSeconds(pid) - planeBefore[i], 0);
    const after = await scrape(admin);
    if (after.start !== before.start) res.error = "the apiserver restarted during the run";
    res.flow = delta(before.flow, after.flow);
    res.all = delta(before.all, after.all);
  } catch (e) {
    res.error = e.message.split("\n")[0];
    console.error(`vs-flux: ${tool}: ${e.message}\n${procs.map((p) => p.tail()).join("\n")}`);
  } finally {
    clearInterval(sampler);
    await Promise.all(procs.map((p) => p.stop()));
    forget();
  }
  if (!ctx.last) await removeRun(admin, [ns, target], Object.values(API));
  return res;
}

function object(kind, i, target, source) {
  const metadata = { name: `app-${i}` };
  if (kind === "kustomizations")
    return {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata,
      spec: {
        ...{ interval: "60m", retryInterval: "5m", prune: true, path: `./apps/app-${i}`, targetNamespace: target },
        sourceRef: { kind: source === "oci" ? "OCIRepository" : "GitRepository", name: "apps" },
      },
    };
  return {
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    kind: "HelmRelease",
    metadata,
    spec: {
      ...{ interval: "60m", releaseName: `app-${i}`, targetNamespace: target },
      ...(source === "oci"
        ? { chartRef: { kind: "OCIRepository", name: "apps" } }
        : {
            chart: { spec: { chart: "bench", version: "1.0.0", sourceRef: { kind: "HelmRepository", name: "apps" } } },
          }),
    },
  };
}
