// What the HelmRelease e2e files share: a test namespace, a loopback chart repository (charts packaged
// by the real helm), the real `flotilla controller` process sharded to that namespace, a HelmRepository
// "charts" on the repository, and helpers that create HelmReleases and wait on Flux's conditions.
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import type { Condition } from "../../src/api/meta/conditions.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ChartRepo, helmEnv, runHelm, startChartRepo } from "./chart-repo.js";
import type { ControllerProcess } from "./controller-process.js";
import { eventually, plane } from "./fleet-context.js";
import { startHarness } from "./harness.js";

const HELM_RELEASE = { group: "helm.toolkit.fluxcd.io", version: "v2", kind: "HelmRelease" };

export interface HelmReleaseEnv {
  ns: string;
  charts: ChartRepo;
  controller: ControllerProcess;
  /** The controller's --storage-path (artifacts, and the unpacked-artifact cache below it). */
  storagePath: string;
  hrPath(name: string): string;
  hr(name: string): Promise<HelmRelease>;
  /** A HelmRelease of `chart` from the HelmRepository "charts", in the controller's shard. */
  createRelease(name: string, chart: { name: string; version: string }, spec?: Record<string, unknown>): Promise<void>;
  /** Asks for a reconcile (requestedAt) and waits until it is handled; returns the object then. */
  requestReconcile(name: string): Promise<HelmRelease>;
  /** Waits for Ready=status for the current generation; returns the object. */
  waitReady(name: string, status?: "True" | "False", timeoutMs?: number): Promise<HelmRelease>;
  /** `helm <args> --kubeconfig <plane>` with a private helm home; stdout. */
  helm(args: string[], planeName?: string): Promise<string>;
  stop(): Promise<void>;
}

export const condOf = (o: HelmRelease, type: string): Condition | undefined =>
  o.status?.conditions?.find((c) => c.type === type);

export async function startHelmReleaseEnv(
  prefix: string,
  opts: { extraArgs?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<HelmReleaseEnv> {
  const charts = await startChartRepo();
  // The controller installs the CRDs as it starts (--install-crds): the harness waits until HelmRelease is
  // served. Cleanup signals it and goes on (a release it is stuck in does not hold the file's end).
  const h = await startHarness({
    namespaces: { app: prefix },
    controller: {
      storagePrefix: prefix,
      extraArgs: opts.extraArgs,
      env: opts.env,
      serves: [HELM_RELEASE],
      awaitExit: false,
    },
  });
  const { mgmt, controller, storagePath } = h;
  const ns = h.ns.app;
  h.onCleanup(() => charts.close());
  const shard = { "flotilla.dev/shard": ns };
  const hrPath = (name: string) => `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases/${name}`;
  const hr = (name: string) => mgmt.client.get<HelmRelease>(hrPath(name));
  await mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/helmrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "HelmRepository",
    metadata: { name: "charts", namespace: ns, labels: shard },
    spec: { interval: "10m", url: charts.url },
  });
  // A HelmRepository indexed before a chart was published keeps that index until its interval (10m; Flux
  // too), and the controller may index it before a test's first addChart: ask for a re-index after each.
  const publish = charts.addChart.bind(charts);
  charts.addChart = async (name, version, chartOpts) => {
    await publish(name, version, chartOpts);
    await mgmt.client
      .patch(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/helmrepositories/charts`, "merge", {
        metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: new Date().toISOString() } },
      })
      .catch(() => {});
  };
  return {
    ns,
    charts,
    controller,
    storagePath,
    hrPath,
    hr,
    async createRelease(name, chart, spec = {}) {
      await mgmt.client.create(`/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases`, {
        apiVersion: "helm.toolkit.fluxcd.io/v2",
        kind: "HelmRelease",
        metadata: { name, namespace: ns, labels: shard },
        spec: {
          interval: "10m",
          timeout: "60s",
          chart: {
            // The HelmChart made from the template carries its labels: the same shard.
            metadata: { labels: shard },
            spec: { chart: chart.name, version: chart.version, sourceRef: { kind: "HelmRepository", name: "charts" } },
          },
          ...spec,
        },
      });
    },
    async requestReconcile(name) {
      const at = new Date().toISOString();
      await mgmt.client.patch(hrPath(name), "merge", { metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } } });
      return eventually(
        `HelmRelease ${ns}/${name}'s reconcile request handled`,
        async () => {
          const o = await hr(name);
          return o.status?.lastHandledReconcileAt === at ? o : undefined;
        },
        120_000,
        1000,
      );
    },
    waitReady: (name, status = "True", timeoutMs = 180_000) =>
      eventually(
        `HelmRelease ${ns}/${name} Ready=${status}`,
        async () => {
          const o = await hr(name);
          const c = condOf(o, "Ready");
          // A release whose chart is merely not fetched yet ("HelmChart '…' is not ready", no reason after it)
          // is on its way, not the outcome a test waits for: the chart's own failure comes with its message.
          const chartPending = c?.reason === "SourceNotReady" && /is not ready$/.test(c.message ?? "");
          if (status === "False" && chartPending) return undefined;
          return c?.status === status && c.observedGeneration === o.metadata.generation ? o : undefined;
        },
        timeoutMs,
        1000,
      ).catch(async (err: Error) => {
        throw new Error(`${err.message}; conditions: ${JSON.stringify((await hr(name)).status?.conditions)}`);
      }),
    helm: (args, planeName = "management") =>
      runHelm([...args, "--kubeconfig", plane(planeName).kubeconfig], helmEnv(makeWorkDir("flotilla-helm-cli-"))),
    stop: () => h.cleanup(),
  };
}
