// The Flux Operator's objects in `flotilla dashboard`, in a real browser (Debian's Chromium) against the
// real controller process on the shared fleet: a ResourceSet with inline inputs and a Static provider,
// targeting the fleet Cluster tenant1 (fleet.flotilla.dev/target-clusters, decision 0048), shows on the
// fleet page with its targets and inputs; its page lists its input group by ids and keys (never a value),
// the provider and tenant1's inventory; tenant1's Cluster page lists it; the namespace's FluxInstance and
// FluxReport show on the fleet page and their own page; the header filters narrow the Notifications page.
import { type ChildProcess, spawn } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clusterCrd } from "../../src/api/fleet/cluster.js";
import { operatorCrds } from "../../src/api/flux-crds.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { providerCrd } from "../../src/api/notification/provider.js";
import type { ResourceSet } from "../../src/api/operator/resourceset.js";
import { launchBrowser, type NetworkLog, networkLog, screenshot } from "../support/browser.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type Harness, startHarness } from "../support/harness.js";

const SHARD = "flotilla.dev/shard";
/** In an input's value: the page shows ids and keys, so no response may carry it. */
const INPUT_VALUE = "rs-dash-input-value-5e0b7a";
const API = "/apis/fluxcd.controlplane.io/v1/namespaces";
let h: Harness<"rs">;
let ns: string;
let remoteNs: string;
let browser: Browser;
let url: string;
let dashboard: ChildProcess | undefined;
let log: NetworkLog;
let page: Page;

const obj = (apiVersion: string, kind: string, name: string, spec: unknown, extra: Record<string, unknown> = {}) =>
  ({ apiVersion, kind, metadata: { name, namespace: ns, labels: { [SHARD]: ns }, ...extra }, spec }) as KubeObject;

/** `flotilla dashboard` as a user runs it; resolves with the URL it prints. */
function startDashboard(): Promise<string> {
  const child = spawn(process.execPath, [
    "bin/flotilla.js",
    "dashboard",
    "-n",
    ns,
    "--port",
    "0",
    "--kubeconfig",
    plane("management").kubeconfig,
  ]);
  dashboard = child;
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const found = /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`dashboard exited ${code}: ${err}`)));
  });
}

beforeAll(async () => {
  h = await startHarness({
    namespaces: { rs: "rsdash" },
    crds: [...operatorCrds(), clusterCrd() as unknown as KubeObject, providerCrd() as unknown as KubeObject],
    controller: { storagePrefix: "rsdash" },
  });
  ns = h.ns.rs;
  const tenant = planeCluster("tenant1");
  remoteNs = await testNamespace(tenant.client, "rsdash");
  h.onCleanup(() => tenant.client.delete(`/api/v1/namespaces/${remoteNs}`).catch(() => undefined));
  const secret = await h.copyKubeconfig("tenant1", ns);
  const apply = (o: KubeObject) => h.mgmt.apply(o, "flotilla-test", { force: true });
  await apply(
    obj(
      "fleet.flotilla.dev/v1alpha1",
      "Cluster",
      "tenant1",
      {
        kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
        variables: { target_ns: remoteNs },
      },
      { labels: { [SHARD]: ns, env: "prod" } },
    ),
  );
  await apply(
    obj("fluxcd.controlplane.io/v1", "ResourceSetInputProvider", "extra", {
      type: "Static",
      defaultValues: { app: "c" },
    }),
  );
  await apply(
    obj(
      "fluxcd.controlplane.io/v1",
      "ResourceSet",
      "apps",
      {
        inputs: [
          { app: "a", note: INPUT_VALUE },
          { app: "b", note: INPUT_VALUE },
        ],
        inputsFrom: [{ kind: "ResourceSetInputProvider", name: "extra" }],
        resourcesTemplate: [
          "apiVersion: v1",
          "kind: ConfigMap",
          "metadata:",
          "  name: << inputs.app >>-info",
          "  namespace: << inputs.cluster.variables.target_ns >>",
          "data:",
          "  cluster: << inputs.cluster.name >>",
          "",
        ].join("\n"),
      },
      { annotations: { "fleet.flotilla.dev/target-clusters": "env=prod" } },
    ),
  );
  // The report as the operator's initReport makes it, in this test's shard; the instance without a sync.
  await apply(
    obj(
      "fluxcd.controlplane.io/v1",
      "FluxReport",
      "flux",
      { distribution: { status: "Unknown", entitlement: "Unknown" } },
      {
        annotations: { "fluxcd.controlplane.io/reconcileEvery": "2s" },
      },
    ),
  );
  await apply(
    obj("fluxcd.controlplane.io/v1", "FluxInstance", "flux", {
      distribution: { version: "2.x", registry: "ghcr.io/fluxcd" },
    }),
  );
  for (const name of ["alpha", "beta"])
    await apply(
      obj("notification.toolkit.fluxcd.io/v1beta3", "Provider", name, {
        type: "generic",
        address: `http://127.0.0.1:1/${name}-path`,
      }),
    );
  await eventually(
    "ResourceSet apps Ready=True on tenant1",
    async () => {
      const r = await h.mgmt.client.get<ResourceSet>(`${API}/${ns}/resourcesets/apps`);
      const ready = r.status?.conditions?.find((c) => c.type === "Ready");
      return ready?.status === "True" && r.status?.clusterInventories?.length === 1;
    },
    120_000,
  );
  browser = await launchBrowser();
  url = await startDashboard();
  page = await browser.newPage();
  log = await networkLog(page);
  await page.goto(url);
  await page.locator("#live.on").waitFor({ timeout: 30_000 });
}, 240_000);

afterAll(async () => {
  dashboard?.kill("SIGTERM");
  await browser?.close();
  await h?.cleanup();
}, 120_000);

describe("the dashboard shows the Flux Operator's objects", () => {
  it("the fleet page lists the ResourceSet with its target cluster and inputs, and the FluxInstance", async () => {
    const row = page.locator(`tr[data-resourceset="${ns}/apps"]`);
    await expect.poll(() => row.getAttribute("data-state"), { timeout: 30_000 }).toBe("ready");
    const text = async (cell: string) => (await row.locator(cell).textContent())?.replace(/\s+/g, " ").trim();
    expect(await text("td[data-targets]")).toBe(`${ns}/tenant1 (env=prod)`);
    expect(await text("td[data-inputs]")).toBe("3");
    expect(await text("td[data-groups]")).toBe("1");
    // tenant1's card lists it as one of its apps.
    const card = page.locator(`section[data-cluster="${ns}/tenant1"]`);
    expect(await card.locator(`tr[data-app="ResourceSet/${ns}/apps"]`).count()).toBe(1);
    const flux = page.locator(`tr[data-flux="${ns}"]`);
    await expect.poll(() => flux.getAttribute("data-state"), { timeout: 60_000 }).toBe("ready");
    await screenshot(page, "dashboard-resourcesets-fleet");
  });

  it("the ResourceSet's page lists its input ids and keys, its provider and tenant1's inventory", async () => {
    await page.locator(`tr[data-resourceset="${ns}/apps"] a`).first().click();
    await page.locator("h1", { hasText: `ResourceSet ${ns}/apps` }).waitFor();
    const group = page.locator(`section[data-group="${ns}/tenant1"]`);
    await group.waitFor();
    const rows = await group.locator("tbody tr").allTextContents();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain(`ResourceSet/apps`);
    expect(rows[0]).toContain("app, cluster, note");
    // The Static provider's input: id = adler32 of the provider's UID, as the operator exports it.
    expect(rows[2]).toMatch(/\d+ResourceSetInputProvider\/extraapp, cluster/);
    const text = await page.locator("main").textContent();
    expect(text).toMatch(/extraStatic/);
    const inventory = await page.locator(`section[data-inventory="${ns}/tenant1"]`).textContent();
    expect(inventory).toContain(remoteNs);
    expect(inventory).toContain("ConfigMap: a-info, b-info, c-info");
    expect(await page.locator("#filters").isHidden()).toBe(true);
    await screenshot(page, "dashboard-resourceset-app");
  });

  it("tenant1's Cluster page lists the ResourceSet that targets it", async () => {
    await page.goto(`${url}#/cluster/${encodeURIComponent(`${ns}/tenant1`)}`);
    await page.locator("h1", { hasText: `${ns}/tenant1` }).waitFor();
    await page.locator(`tr[data-app="ResourceSet/${ns}/apps"]`).waitFor();
  });

  it("the FluxInstance's page shows what maps onto flotilla and the FluxReport", async () => {
    await page.goto(`${url}#/flux/${ns}`);
    await page.locator("h1", { hasText: `Flux in ${ns}` }).waitFor();
    await expect.poll(() => page.locator("ul[data-mapped]").textContent(), { timeout: 30_000 }).toContain("components");
    await expect
      .poll(() => page.locator("dd[data-distribution]").textContent(), { timeout: 30_000 })
      .toContain("Installed");
    await screenshot(page, "dashboard-flux");
  });

  it("the header filters narrow the Notifications page", async () => {
    await page.goto(`${url}#/notifications`);
    await page.locator(`section[data-provider="${ns}/beta"]`).waitFor();
    expect(await page.locator("#filters").isVisible()).toBe(true);
    await page.getByLabel("Search").fill("alpha");
    await page.locator(`section[data-provider="${ns}/beta"]`).waitFor({ state: "detached" });
    expect(await page.locator(`section[data-provider="${ns}/alpha"]`).count()).toBe(1);
    await page.getByLabel("Search").fill("");
  });

  it("no response carries an input's value", async () => {
    const bodies = await log.bodies();
    expect(bodies.length).toBeGreaterThan(5);
    for (const b of bodies) expect(b).not.toContain(INPUT_VALUE);
  });
});
