// The Kamaji guide at fleet scale, on a fleet of its own: one FleetHelmRelease selecting every discovered
// Kamaji cluster installs the add-on in every tenant plane, and a tenant plane added later
// (`flotilla local add-tenant`) receives it with no change anywhere else — discovery makes its Cluster, the
// fan-out its release. The real `flotilla controller` runs everything, unsharded, on this fleet alone.
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetHelmRelease } from "../../src/api/fleet/fleet-helmrelease.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { KubeClient } from "../../src/kube/client.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { endpointFromKubeconfigFile } from "../../src/kube/kubeconfig.js";
import { downFleet } from "../../src/local/fleet-down.js";
import { readFleetState } from "../../src/local/fleet-state.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { benchChart } from "../support/charts.js";
import { type ChartRepo, startChartRepo } from "../support/chart-repo.js";
import { runCli } from "../support/cli.js";
import { eventually } from "../support/fleet-context.js";

const scratch = makeWorkDir("flotilla-kamaji-addon-");
const dir = join(scratch, "fleet");
let controller: ChildProcess | undefined;
let charts: ChartRepo;
let mgmt: KubeClient;
const client = (plane: string) =>
  new KubeClient(endpointFromKubeconfigFile(readFleetState(dir)!.planes.find((p) => p.name === plane)!.kubeconfig));

async function addonOn(plane: string): Promise<string | undefined> {
  try {
    const cm = await client(plane).get<{ data: Record<string, string> }>("/api/v1/namespaces/addons/configmaps/addon");
    return cm.data.message;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

beforeAll(async () => {
  const up = await runCli(["local", "up", "--tenants", "1", "--dir", dir], { timeoutMs: 240_000 });
  expect(up.code, up.stderr).toBe(0);
  mgmt = client("management");
  charts = await startChartRepo();
  await benchChart(charts);
  controller = spawn(
    process.execPath,
    [
      "bin/flotilla.js",
      "controller",
      "--kubeconfig",
      readFleetState(dir)!.planes[0]!.kubeconfig,
      "--install-crds",
      "--storage-path",
      join(scratch, "storage"),
      "--storage-addr",
      "127.0.0.1:0",
      "--health-addr",
      "127.0.0.1:0",
    ],
    { stdio: ["ignore", "ignore", "ignore"] },
  );
  await eventually(
    "the fleet CRDs served",
    () => mgmt.get(pathOf(SERVED_KINDS.FleetHelmRelease, "tenants")).then(() => true),
    120_000,
    500,
  );
  await mgmt.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/tenants/helmrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "HelmRepository",
    metadata: { name: "addons", namespace: "tenants" },
    spec: { interval: "10m", url: charts.url },
  });
}, 300_000);

afterAll(async () => {
  controller?.kill("SIGKILL");
  await charts?.close();
  await downFleet(dir).catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
}, 120_000);

describe("the Kamaji guide's add-on, fleet-wide", () => {
  it("one FleetHelmRelease installs it in every discovered tenant plane", async () => {
    await mgmt.create(pathOf(SERVED_KINDS.FleetHelmRelease, "tenants"), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "FleetHelmRelease",
      metadata: { name: "addon", namespace: "tenants" },
      spec: {
        clusterSelector: { matchLabels: { "fleet.flotilla.dev/discovered-from": "kamaji" } },
        template: {
          spec: {
            interval: "10m",
            timeout: "60s",
            targetNamespace: "addons",
            releaseName: "addon",
            install: { createNamespace: true },
            chart: {
              spec: { chart: "bench", version: "1.0.0", sourceRef: { kind: "HelmRepository", name: "addons" } },
            },
            values: { message: "add-on for ${cluster_name}" },
          },
        },
      },
    });
    expect(await eventually("the add-on on tenant1", () => addonOn("tenant1"), 240_000, 1000)).toBe(
      "add-on for tenant1",
    );
  }, 300_000);

  it("a tenant plane added later gets it too, with nothing changed in Git or in the FleetHelmRelease", async () => {
    const generation = (await mgmt.get<FleetHelmRelease>(pathOf(SERVED_KINDS.FleetHelmRelease, "tenants", "addon")))
      .metadata.generation;
    const add = await runCli(["local", "add-tenant", "tenant2", "--dir", dir], { timeoutMs: 240_000 });
    expect(add.code, add.stderr).toBe(0);
    expect(await eventually("the add-on on the new plane", () => addonOn("tenant2"), 240_000, 1000)).toBe(
      "add-on for tenant2",
    );
    const fhr = await eventually(
      "the FleetHelmRelease Ready on both",
      async () => {
        const o = await mgmt.get<FleetHelmRelease>(pathOf(SERVED_KINDS.FleetHelmRelease, "tenants", "addon"));
        return o.status?.counts?.ready === 2 ? o : undefined;
      },
      120_000,
      1000,
    );
    expect(fhr.metadata.generation).toBe(generation);
    expect(fhr.status?.clusters?.map((c) => c.cluster)).toEqual(["tenant1", "tenant2"]);
  }, 360_000);
});
