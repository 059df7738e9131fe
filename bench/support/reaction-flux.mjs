// For bench/reaction.bench.mjs, part 3: the same hand edit against Flux's own source-controller and
// kustomize-controller (started by bench/support/flux-controllers.mjs; binaries from `npm run build:flux`)
// on a fresh single plane of its own (Flux's CRDs, no flotilla), one app Kustomization at interval 1m
// (its GitRepository at 1h): hand edit → restored. Flux restores at the Kustomization's next interval
// (kustomize-controller requeues interval ± 5 % jitter after each reconcile), so the time measured depends
// on where in the interval the edit lands: round r edits (r + ½)/R of the interval after the previous
// restore (that restore is a reconcile), spreading the edits evenly over the interval.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { appFiles, GR, isReady, KS } from "./controller-bench.mjs";
import { APPS_NS, editAndTime, ensure, NS, sleep, waitFor } from "./reaction-fleet.mjs";

const { upFleet, downFleet, locateToolchain } = await import("../../dist/local/index.js");
const { freePort } = await import("../../dist/local/ports.js");
const { KubeClient } = await import("../../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../../dist/kube/kubeconfig.js");

export const FLUX_INTERVAL_S = 60;

/** Flux's controllers, or why this part cannot run. */
async function loadFlux() {
  if (!existsSync(new URL("./flux-controllers.mjs", import.meta.url)))
    return { why: "bench/support/flux-controllers.mjs does not exist" };
  const fc = await import("./flux-controllers.mjs");
  const api = ["startFlux", "fluxBinary", "fluxCrdDirs", "applyFluxCrds", "untilHealthy", "fluxVersions"];
  const missing = api.filter((f) => typeof fc[f] !== "function");
  if (missing.length) return { why: `flux-controllers.mjs does not export ${missing.join(", ")}` };
  const bin = join(locateToolchain().dir, "bin");
  const bins = { source: fc.fluxBinary(bin, "source"), kustomize: fc.fluxBinary(bin, "kustomize") };
  const why = [bins.source.why, bins.kustomize.why].filter(Boolean).join("; ");
  if (why) return { why };
  try {
    const crds = fc.fluxCrdDirs(["source", "kustomize"]);
    return { fc, bin, crds, binaries: { source: bins.source.path, kustomize: bins.kustomize.path } };
  } catch (e) {
    return { why: `Flux's CRDs not found: ${e.message}` };
  }
}

/** Runs `rounds` timed hand edits against Flux; { times, versions } or { why } when Flux cannot run here. */
export async function fluxDriftRounds({ rounds, limits, git, cleanups }) {
  const flux = await loadFlux();
  if (flux.why) return { why: flux.why };
  const { fc } = flux;
  const work = mkdtempSync(join(tmpdir(), "reaction-flux-"));
  const dir = join(work, "fleet");
  let procs = [];
  const cleanup = async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await downFleet(dir).catch((e) => console.error(String(e)));
    rmSync(work, { recursive: true, force: true });
  };
  cleanups.add(cleanup);
  try {
    const fleet = await upFleet({ dir, tenants: 0 });
    const plane = fleet.state.planes[0];
    const client = new KubeClient(endpointFromKubeconfigFile(plane.kubeconfig));
    fc.applyFluxCrds(join(flux.bin, "kubectl"), plane.superAdminKubeconfig, flux.crds);
    for (const name of [NS, APPS_NS]) await ensure(client, "/api/v1/namespaces", { metadata: { name } });
    const repo = await git.createRepo("flux-apps");
    await repo.commit(appFiles(0), "one app");
    const storage = join(work, "storage");
    mkdirSync(storage);
    const port = async () => ({ healthPort: await freePort(), metricsPort: await freePort() });
    procs = fc.startFlux({
      kubeconfig: plane.kubeconfig,
      namespace: NS,
      storage,
      ports: { source: await port(), other: await port(), storagePort: await freePort() },
      ...limits,
      other: "kustomize",
      binaries: flux.binaries,
    });
    await fc.untilHealthy(procs);
    const alive = () => procs.every((p) => p.child.exitCode === null && p.child.signalCode === null);
    await client.create(GR, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "apps", namespace: NS },
      spec: { url: repo.url, interval: "1h", ref: { branch: "main" } },
    });
    await waitFor(
      "Flux's GitRepository Ready",
      async () => isReady(await client.get(`${GR}/apps`)),
      120_000,
      200,
      alive,
    );
    await client.create(KS, {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata: { name: "app-0", namespace: NS },
      spec: {
        interval: `${FLUX_INTERVAL_S}s`,
        prune: true,
        path: "./apps/app-0",
        targetNamespace: APPS_NS,
        sourceRef: { kind: "GitRepository", name: "apps" },
      },
    });
    await waitFor(
      "Flux's Kustomization Ready",
      async () => isReady(await client.get(`${KS}/app-0`)),
      120_000,
      200,
      alive,
    );
    let last = performance.now();
    const times = [];
    for (let r = 0; r < rounds; r++) {
      await sleep(Math.max(0, last + ((r + 0.5) / rounds) * FLUX_INTERVAL_S * 1000 - performance.now()));
      const path = `/api/v1/namespaces/${APPS_NS}/configmaps/app-0`;
      times.push(await editAndTime(client, path, "index", 3 * FLUX_INTERVAL_S * 1000, 200));
      if (!alive()) throw new Error(`Flux's controllers exited:\n${procs.map((p) => p.tail()).join("\n")}`);
      console.error(`reaction: flux edit ${r + 1}/${rounds} restored in ${times.at(-1).toFixed(2)} s`);
      last = performance.now();
    }
    return { times, versions: fc.fluxVersions() };
  } catch (e) {
    throw new Error(`${e.message}\n${procs.map((p) => p.tail()).join("\n")}`);
  } finally {
    cleanups.delete(cleanup);
    await cleanup();
  }
}
