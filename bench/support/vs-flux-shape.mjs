// For bench/vs-flux.bench.mjs and bench/growth.bench.mjs: one shape (N Kustomizations or HelmReleases) on ONE
// fresh local plane, flotilla's run and Flux's one after the other (support/vs-flux-run.mjs), everything
// started stopped on the way out. A fresh plane per shape keeps the runs comparable: each N starts from an
// empty etcd and cold apiserver caches, whatever ran before.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appFiles } from "./controller-bench.mjs";
import { startChartServer } from "./chart-server.mjs";
import { startOciSource } from "./oci-sources.mjs";
import * as fc from "./flux-controllers.mjs";
import { createFlowSchemas } from "./vs-flux-plane.mjs";
import { runTool } from "./vs-flux-run.mjs";

const { upFleet, downFleet, locateToolchain } = await import("../../dist/local/index.js");
const { startGitHttpServer } = await import("../../dist/demo/git-http-server.js");
const { KubeClient } = await import("../../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../../dist/kube/kubeconfig.js");

export const BIN = join(locateToolchain().dir, "bin");

// Everything started is stopped on the way out, Ctrl-C included.
const cleanups = new Set();
export const later = (fn) => (cleanups.add(fn), () => cleanups.delete(fn));
export async function cleanAll() {
  for (const fn of [...cleanups].reverse()) await Promise.resolve(fn()).catch((e) => console.error(String(e)));
  cleanups.clear();
}
for (const sig of ["SIGINT", "SIGTERM"]) process.once(sig, () => void cleanAll().then(() => process.exit(130)));

/** Why Flux cannot run this shape (binaries, CRDs), or its binaries and CRD directories. */
function fluxFor(kind) {
  const other = kind === "kustomizations" ? "kustomize" : "helm";
  const bins = ["source", other].map((c) => [c, fc.fluxBinary(BIN, c)]);
  const why = bins.map(([, b]) => b.why).filter(Boolean);
  if (why.length) return { why: why.join("\n") };
  try {
    return {
      other,
      binaries: Object.fromEntries(bins.map(([c, b]) => [c, b.path])),
      crds: fc.fluxCrdDirs(["source", other]),
    };
  } catch (e) {
    return { why: `Flux's CRDs not found in the Go module cache: ${e.message}` };
  }
}

/**
 * o: order (alternate|flotilla-first|flux-first), only ("" | flotilla | flux), source (git|oci), limits, base
 * (where planes live), timeoutMs (each run's wait for all Ready), capMs ({flotilla?, flux?}: per side, instead
 * of timeoutMs), progress (optional (line) => void).
 */
/**
 * FLOTILLA_BENCH_AUDIT=<file>: the plane's audit log of the controllers' requests (Metadata level, the
 * benchmark's own system:masters requests left out) is copied to <file> — a per-request timeline for profiling.
 */
function auditArgs(work) {
  const out = process.env.FLOTILLA_BENCH_AUDIT;
  if (!out) return [];
  const policy = join(work, "audit-policy.yaml");
  writeFileSync(
    policy,
    [
      "apiVersion: audit.k8s.io/v1",
      "kind: Policy",
      "omitStages: [RequestReceived]",
      "rules:",
      "  - level: None",
      "    userGroups: [system:masters, system:nodes, system:serviceaccounts]",
      "  - level: None",
      "    users: [system:kube-controller-manager, system:kube-scheduler, system:apiserver]",
      "  - level: Metadata",
      "",
    ].join("\n"),
  );
  later(() => copyFileSync(join(work, "audit.log"), out));
  return [`--audit-policy-file=${policy}`, `--audit-log-path=${join(work, "audit.log")}`, "--audit-log-maxsize=0"];
}

/**
 * --plane-kcm-qps N: the plane's kube-controller-manager talks to its apiserver at N requests per second
 * (burst 2N) instead of its default 20 (burst 30). Each 0-replica Deployment costs its deployment
 * controller four requests before kstatus counts it Current, so at the default no tool can have more
 * than five HelmReleases' Deployments become Current per second (decision 0055). Same for both tools.
 */
function kcmArgs(o) {
  return o.kcmQps ? [`--kube-api-qps=${o.kcmQps}`, `--kube-api-burst=${2 * o.kcmQps}`] : [];
}

export async function runShape(kind, n, s, o) {
  const fluxFirst = o.order === "flux-first" || (o.order === "alternate" && s % 2 === 1);
  const flux = fluxFor(kind);
  const tools = (fluxFirst ? ["flux", "flotilla"] : ["flotilla", "flux"]).filter(
    (t) => (t === "flotilla" || !flux.why) && (!o.only || t === o.only),
  );
  const work = mkdtempSync(join(o.base, "vs-flux-"));
  const dir = join(work, "fleet");
  later(() => rmSync(work, { recursive: true, force: true }));
  later(() => downFleet(dir));
  const fleet = await upFleet({ dir, tenants: 0, apiserverArgs: auditArgs(work), controllerManagerArgs: kcmArgs(o) });
  o.progress?.(`${n} ${kind}: fresh plane up`);
  const p = fleet.state.planes[0];
  const admin = new KubeClient(endpointFromKubeconfigFile(p.superAdminKubeconfig)); // system:masters: APF-exempt
  const plane = {
    pki: join(dir, "planes", p.name, "pki"),
    planeName: p.name,
    server: endpointFromKubeconfigFile(p.kubeconfig).server,
    superAdminKubeconfig: p.superAdminKubeconfig,
  };
  const planeProcs = [...p.processes.map((x) => [x.component, x.pid]), ["etcd", fleet.state.etcd.process.pid]];
  for (const t of tools) await createFlowSchemas(admin, t);
  // Flux's CRDs are on the plane before either run (also the kinds flotilla does not serve).
  if (!flux.why) fc.applyFluxCrds(join(BIN, "kubectl"), p.superAdminKubeconfig, flux.crds);
  let url;
  let tag;
  if (o.source === "oci") {
    const files =
      kind === "kustomizations" ? Object.assign({}, ...Array.from({ length: n }, (_, i) => appFiles(i))) : {};
    const oci = await startOciSource(kind, files, join(BIN, "helm"));
    later(() => oci.close());
    ({ url, tag } = oci);
  } else if (kind === "kustomizations") {
    const git = await startGitHttpServer();
    later(() => git.close());
    const repo = await git.createRepo("apps");
    await repo.commit(Object.assign({}, ...Array.from({ length: n }, (_, i) => appFiles(i))), `${n} apps`);
    url = repo.url;
  } else {
    const charts = await startChartServer(join(BIN, "helm"));
    later(() => charts.close());
    url = charts.url;
  }
  const ctx = {
    ...{ kind, n, admin, plane, flux, work, url, tag, source: o.source, planeProcs, bin: BIN },
    ...{ limits: o.limits, timeoutMs: o.timeoutMs, later, progress: o.progress },
  };
  const results = {};
  for (const [r, tool] of tools.entries()) {
    const timeoutMs = o.capMs?.[tool] ?? o.timeoutMs;
    results[tool] = await runTool(tool, { ...ctx, timeoutMs, last: r === tools.length - 1 }, r);
  }
  await cleanAll();
  return { kind, n, order: tools, fluxWhy: flux.why, ...results };
}
