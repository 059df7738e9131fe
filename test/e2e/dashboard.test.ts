// `flotilla dashboard` in a real browser (Debian's Chromium driven by playwright-core) against the local
// fleet: tenant1 and tenant2 as Clusters, an app on each through its kubeconfig Secret, one taking a
// value from a Secret. The fleet page lists both clusters and their apps; breaking the app on tenant2
// shows it failing without a reload, and its recovery too; reconcile and suspend work from the app page,
// and are refused — with the API's own message — under an identity RBAC only lets read; --read-only
// turns the actions off. No response of any page carries a Secret's value.
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import { SERVED_KINDS, USED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import type { Controller } from "../../src/runtime/controller.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { launchBrowser, type NetworkLog, networkLog, screenshot } from "../support/browser.js";
import { startController } from "../support/controller-process.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import { issueKubeconfig } from "../support/plane-identity.js";

const SHARD = "flotilla.dev/shard";
const SECRET_VALUE = "dashboard-secret-value-3f9c1e";
const TENANTS = ["tenant1", "tenant2"] as const;
const remoteNs: Record<string, string> = {};
let h: KustomizeHarness;
let browser: Browser;
let work: string;
let adminKeyData = "";
const controllers: Controller[] = [];
const dashboards: ChildProcess[] = [];
/** Every page's response bodies, read before the page closes (a closed page's are gone). */
const bodies: string[] = [];
const pageLogs = new Map<Page, NetworkLog>();

const cm = (name: string, data: string) =>
  ["apiVersion: v1", "kind: ConfigMap", "metadata:", `  name: ${name}`, "data:", `  value: ${data}`, ""].join("\n");

/** `flotilla dashboard` as a user runs it; resolves with the URL it prints. */
function startDashboard(args: string[]): Promise<string> {
  const child = spawn(process.execPath, ["bin/flotilla.js", "dashboard", "-n", h.ns, "--port", "0", ...args]);
  dashboards.push(child);
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once("exit", (code) => reject(new Error(`dashboard exited ${code}: ${err}`)));
  });
}

async function open(url: string): Promise<Page> {
  const page = await browser.newPage();
  const log = await networkLog(page);
  pageLogs.set(page, log);
  await page.goto(url);
  await page.locator("#live.on").waitFor({ timeout: 30_000 });
  return page;
}

async function close(page: Page): Promise<void> {
  bodies.push(...(await pageLogs.get(page)!.bodies()));
  await page.close();
}

const row = (page: Page, app: string) => page.locator(`tr[data-app="${app}"]`).first();
const ks = (name: string) => h.mgmt.client.get<Kustomization>(pathOf(SERVED_KINDS.Kustomization, h.ns, name));

beforeAll(async () => {
  work = makeWorkDir("flotilla-dashboard-e2e-");
  browser = await launchBrowser();
  h = await startKustomizeHarness({ prefix: "dash" });
  await serveFleetCrds(h);
  await h.mgmt.client.create(pathOf(USED_KINDS.Secret, h.ns), {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "app-values" },
    stringData: { secret_value: SECRET_VALUE },
  });
  for (const t of TENANTS) {
    remoteNs[t] = await testNamespace(planeCluster(t).client, "dash");
    const secret = await h.copyAdminKubeconfig(t);
    const admin = await h.mgmt.client.get<{ data: Record<string, string> }>(pathOf(USED_KINDS.Secret, h.ns, secret));
    adminKeyData = /client-key-data: (\S+)/.exec(Buffer.from(admin.data["admin.conf"]!, "base64").toString())![1]!;
    await h.mgmt.client.create(pathOf(SERVED_KINDS.Cluster, h.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name: t, namespace: h.ns, labels: { [SHARD]: h.ns } },
      spec: { kubeConfig: { secretRef: { name: secret, key: "admin.conf" } }, interval: "30s" },
    });
    await h.createKs(`app-${t}`, {
      path: `./apps/${t}`,
      prune: true,
      retryInterval: "2s",
      targetNamespace: remoteNs[t],
      kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
      postBuild: { substituteFrom: [{ kind: "Secret", name: "app-values" }] },
    });
  }
  controllers.push(...(await startFleetControllers(h, `${SHARD}=${h.ns}`)));
  await h.commit(
    { "apps/tenant1/cm.yaml": cm("app", "one"), "apps/tenant2/cm.yaml": cm("app", "${secret_value}") },
    "an app on each tenant",
  );
  for (const t of TENANTS) await h.waitReady(`app-${t}`);
  // A viewer: may read what the dashboard shows in this namespace, and nothing else.
  const viewer = `dash-viewer-${h.ns}`;
  const rbac = (kind: string, body: Record<string, unknown>) =>
    h.mgmt.client.create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${h.ns}/${kind}`, body);
  await rbac("roles", {
    metadata: { name: "viewer" },
    rules: [
      {
        apiGroups: [
          "kustomize.toolkit.fluxcd.io",
          "helm.toolkit.fluxcd.io",
          "fleet.flotilla.dev",
          "source.toolkit.fluxcd.io",
        ],
        resources: ["*"],
        verbs: ["get", "list", "watch"],
      },
      { apiGroups: [""], resources: ["events"], verbs: ["get", "list", "watch"] },
    ],
  });
  await rbac("rolebindings", {
    metadata: { name: "viewer" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "viewer" },
    subjects: [{ kind: "User", name: viewer, apiGroup: "rbac.authorization.k8s.io" }],
  });
  writeFileSync(join(work, "viewer.kubeconfig"), issueKubeconfig("management", { commonName: viewer }));
}, 300_000);

afterAll(async () => {
  for (const d of dashboards) d.kill("SIGTERM");
  await browser?.close();
  for (const c of controllers) await c.stop();
  await h?.stop();
}, 120_000);

describe("flotilla dashboard", () => {
  let admin: string;

  it("the fleet page lists tenant1 and tenant2 and the app on each", async () => {
    admin = await startDashboard(["--kubeconfig", plane("management").kubeconfig]);
    const page = await open(admin);
    for (const t of TENANTS) {
      const section = page.locator(`section[data-cluster="${h.ns}/${t}"]`);
      await expect.poll(() => section.locator("h2 .badge").textContent(), { timeout: 60_000 }).toBe("Ready");
      await expect.poll(() => row(page, `Kustomization/${h.ns}/app-${t}`).getAttribute("data-state")).toBe("ready");
      expect(await section.locator(`tr[data-app="Kustomization/${h.ns}/app-${t}"]`).count()).toBe(1);
    }
    await screenshot(page, "dashboard-fleet");
    await close(page);
  });

  it("an app broken on tenant2 shows as failing without a reload, and its recovery too", async () => {
    const page = await open(admin);
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
    const app = row(page, `Kustomization/${h.ns}/app-tenant2`);
    await expect.poll(() => app.getAttribute("data-state")).toBe("ready");
    await h.commit({ "apps/tenant2/cm.yaml": null }, "tenant2's app removed: its path is gone");
    await expect.poll(() => app.getAttribute("data-state"), { timeout: 30_000, interval: 200 }).toBe("failing");
    expect(await app.locator("td.msg").textContent()).toMatch(/apps\/tenant2/);
    await screenshot(page, "dashboard-failing");
    await h.commit({ "apps/tenant2/cm.yaml": cm("app", "${secret_value}") }, "tenant2's app back");
    await expect.poll(() => app.getAttribute("data-state"), { timeout: 30_000, interval: 200 }).toBe("ready");
    // The same document all along: the page was never reloaded.
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(42);
    await close(page);
  });

  it("the app page shows source, conditions and inventory; reconcile and suspend work", async () => {
    const page = await open(admin);
    await row(page, `Kustomization/${h.ns}/app-tenant1`).locator("a").click();
    await page.locator("h1", { hasText: `Kustomization ${h.ns}/app-tenant1` }).waitFor();
    const text = await page.locator("main").textContent();
    expect(text).toContain(`GitRepository/${h.ns}/platform`);
    expect(text).toContain(remoteNs.tenant1);
    expect(text).toContain("ConfigMap: app");
    await screenshot(page, "dashboard-app");

    await page.getByRole("button", { name: "Suspend" }).click();
    await page.getByRole("button", { name: "Resume" }).waitFor({ timeout: 15_000 });
    expect((await ks("app-tenant1")).spec.suspend).toBe(true);
    expect(await page.locator("#toast").textContent()).toContain("suspended");
    await page.getByRole("button", { name: "Resume" }).click();
    await page.getByRole("button", { name: "Suspend" }).waitFor({ timeout: 15_000 });
    expect((await ks("app-tenant1")).spec.suspend).toBe(false);

    const before = (await ks("app-tenant1")).status?.lastHandledReconcileAt;
    await page.getByRole("button", { name: "Reconcile" }).click();
    await eventually("the reconcile handled", async () => {
      const o = await ks("app-tenant1");
      const at = o.metadata.annotations?.["reconcile.fluxcd.io/requestedAt"];
      return at && at !== before && o.status?.lastHandledReconcileAt === at;
    });

    await page.goto(`${admin}#/cluster/${encodeURIComponent(`${h.ns}/tenant1`)}`);
    await page.locator("h1", { hasText: `${h.ns}/tenant1` }).waitFor();
    await screenshot(page, "dashboard-cluster");
    await close(page);
  });

  it("actions are refused with the API's message under a read-only identity, and turned off by --read-only", async () => {
    const viewer = await startDashboard(["--kubeconfig", join(work, "viewer.kubeconfig")]);
    const page = await open(`${viewer}#/app/Kustomization/${h.ns}/app-tenant2`);
    await page.getByRole("button", { name: "Suspend" }).click();
    await expect
      .poll(() => page.locator("#toast.error").textContent(), { timeout: 15_000 })
      .toMatch(new RegExp(`forbidden: User "dash-viewer-${h.ns}" cannot patch resource "kustomizations"`));
    expect((await ks("app-tenant2")).spec.suspend).not.toBe(true);
    await close(page);

    const readOnly = await startDashboard(["--kubeconfig", plane("management").kubeconfig, "--read-only"]);
    const ro = await open(`${readOnly}#/app/Kustomization/${h.ns}/app-tenant2`);
    await ro.locator("h1", { hasText: "app-tenant2" }).waitFor();
    expect(await ro.getByRole("button").count()).toBe(0);
    const refused = await ro.evaluate(
      async (target) => {
        const res = await fetch("/api/action", {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Flotilla-Action": "1" },
          body: JSON.stringify({ action: "suspend", ...target }),
        });
        return { status: res.status, body: await res.text() };
      },
      { kind: "Kustomization", namespace: h.ns, name: "app-tenant2" },
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toContain("read-only");
    await close(ro);
  });

  it("the controller serves it too (--dashboard-addr), read-only unless told otherwise", async () => {
    // Sharded to nothing: this controller reconciles none of the file's objects, it only serves the page.
    const controller = startController({
      namespace: h.ns,
      shard: `nothing-${h.ns}`,
      storagePath: join(work, "controller-storage"),
      extraArgs: ["--dashboard-addr", "127.0.0.1:0", "--kamaji-discovery", "false"],
    });
    const url = await eventually(
      "the controller's dashboard",
      async () => controller.logs.find((l) => l.msg === "dashboard serving")?.url as string | undefined,
      60_000,
    );
    const page = await open(url);
    await page.locator(`section[data-cluster="${h.ns}/tenant1"]`).waitFor({ timeout: 30_000 });
    expect(await page.locator("main .sub").first().textContent()).toContain("read-only");
    await page.goto(`${url}#/app/Kustomization/${h.ns}/app-tenant1`);
    await page.locator("h1", { hasText: "app-tenant1" }).waitFor();
    expect(await page.getByRole("button").count()).toBe(0);
    await close(page);
    controller.child.kill("SIGTERM");
    await controller.exited();
  });

  it("no response carried a Secret's value", async () => {
    expect(bodies.length).toBeGreaterThan(20);
    expect(bodies.some((b) => b.includes("event: change"))).toBe(true);
    for (const b of bodies) {
      expect(b).not.toContain(SECRET_VALUE);
      expect(b).not.toContain(Buffer.from(SECRET_VALUE).toString("base64"));
      expect(b).not.toContain(adminKeyData);
    }
  });
});
