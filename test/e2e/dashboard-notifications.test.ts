// Notifications in `flotilla dashboard`, in a real browser (Debian's Chromium through playwright-core),
// with the real `flotilla controller` process on the shared management plane: a Kustomization watched by
// two Alerts — one to a generic receiver on loopback that answers, one to a Provider whose address
// refuses (its path standing for a webhook URL's token). The app page lists its last notifications,
// delivered and failed, and so does its cluster's page; the Providers page shows the refusing Provider failing with its recent failures
// and its address as scheme and host only; a Provider authenticating as a GitHub App is refused by name;
// `flotilla events` lists the dispatch failures. No page response, event or log carries the token.
import { randomBytes } from "node:crypto";
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { launchBrowser, type NetworkLog, networkLog, screenshot } from "../support/browser.js";
import { runCli } from "../support/cli.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";

const mgmt = planeCluster("management");
const NC = "notification.toolkit.fluxcd.io/v1beta3";
const DEAD_TOKEN = `dead${randomBytes(8).toString("hex")}`;
const APP_KEY = `-----BEGIN RSA PRIVATE KEY-----${randomBytes(8).toString("hex")}`;

let ns: string;
let git: GitHttpServer;
let repo: Awaited<ReturnType<GitHttpServer["createRepo"]>>;
let controller: ControllerProcess;
let dashboard: ChildProcess;
let dashboardUrl: string;
let receiver: Server;
let browser: Browser;
const received: string[] = [];
const bodies: string[] = [];
const logs = new Map<Page, NetworkLog>();

const path = (apiVersion: string, plural: string, name?: string) =>
  `${apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`}/namespaces/${ns}/${plural}${name ? `/${name}` : ""}`;
const create = (apiVersion: string, kind: string, plural: string, name: string, body: Record<string, unknown>) =>
  mgmt.client.create(path(apiVersion, plural), {
    apiVersion,
    kind,
    metadata: { name, namespace: ns, labels: { "flotilla.dev/shard": ns } },
    ...body,
  });
const ready = async (apiVersion: string, plural: string, name: string) => {
  const o = await mgmt.client.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
    path(apiVersion, plural, name),
  );
  return o.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");
};

function startDashboard(): Promise<string> {
  const args = ["dashboard", "-n", ns, "--port", "0", "--kubeconfig", plane("management").kubeconfig];
  dashboard = spawn(process.execPath, ["bin/flotilla.js", ...args]);
  let out = "";
  let err = "";
  dashboard.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    dashboard.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out)?.[1];
      if (url) resolve(url);
    });
    dashboard.once("exit", (code) => reject(new Error(`dashboard exited ${code}: ${err}`)));
  });
}

/** Opens a page of the dashboard and waits, without reloading, until each of `shown` is there. */
async function openUntil(hash: string, ...shown: string[]): Promise<Page> {
  const page = await browser.newPage();
  logs.set(page, await networkLog(page));
  await page.goto(`${dashboardUrl}${hash}`);
  await page.locator("#live.on").waitFor({ timeout: 30_000 });
  for (const s of shown) await page.locator(s).first().waitFor({ timeout: 120_000 });
  return page;
}

async function close(page: Page) {
  bodies.push(...(await logs.get(page)!.bodies()));
  await page.close();
}

beforeAll(async () => {
  ns = await testNamespace(mgmt.client, "dash-notify");
  browser = await launchBrowser();
  git = await startGitHttpServer();
  repo = await git.createRepo(`dash-notify-${ns}`);
  await repo.commit(
    { "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: b\n" },
    "one",
  );
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => (received.push(body), res.writeHead(200).end("ok")));
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  controller = startController({ namespace: ns, shard: ns, storagePath: makeWorkDir("flotilla-dash-notify-") });
  const sources = [{ kind: "Kustomization", name: "app" }];
  await create(NC, "Provider", "providers", "receiver", { spec: { type: "generic", address: `${receiverUrl}/hook` } });
  // Nothing listens on port 1 of loopback; the path stands for a webhook URL's embedded token.
  await create(NC, "Provider", "providers", "refused", {
    spec: { type: "generic", address: `http://127.0.0.1:1/hooks/${DEAD_TOKEN}`, timeout: "2s" },
  });
  await create("v1", "Secret", "secrets", "github-app", {
    stringData: { githubAppID: "1", githubAppInstallationID: "2", githubAppPrivateKey: APP_KEY },
  });
  await create(NC, "Provider", "providers", "github-app", {
    spec: { type: "github", address: "https://github.com/org/app", secretRef: { name: "github-app" } },
  });
  for (const p of ["receiver", "refused"])
    await create(NC, "Alert", "alerts", p, { spec: { providerRef: { name: p }, eventSources: sources } });
  await eventually("the Alerts Ready", async () => (await ready(NC, "alerts", "receiver")) === true, 90_000);
  await create("source.toolkit.fluxcd.io/v1", "GitRepository", "gitrepositories", "app", {
    spec: { url: repo.url, interval: "1h", ref: { branch: "main" } },
  });
  await create("kustomize.toolkit.fluxcd.io/v1", "Kustomization", "kustomizations", "app", {
    spec: {
      sourceRef: { kind: "GitRepository", name: "app" },
      path: "./app",
      interval: "1h",
      prune: true,
      targetNamespace: ns,
    },
  });
  dashboardUrl = await startDashboard();
  await eventually(
    "the Kustomization Ready",
    async () => (await ready("kustomize.toolkit.fluxcd.io/v1", "kustomizations", "app")) === true,
    120_000,
  );
}, 240_000);

afterAll(async () => {
  dashboard?.kill("SIGTERM");
  await browser?.close();
  controller?.child.kill("SIGTERM");
  await controller?.exited();
  await git?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
});

describe("notifications in the dashboard", () => {
  it("the app page lists the Kustomization's last notifications: delivered to the receiver, failed at the refusing Provider", async () => {
    const delivered = 'tr[data-notification="receiver"][data-outcome="delivered"]';
    const failed = 'tr[data-notification="refused"][data-outcome="failed"]';
    const page = await openUntil(`#/app/Kustomization/${ns}/app`, delivered, failed);
    // What the receiver got is what the page says was delivered.
    const reason = (await page.locator(delivered).first().locator("td").nth(4).textContent())!;
    expect(received.some((b) => b.includes(`"reason":"${reason}"`) && b.includes(`"name":"app"`))).toBe(true);
    expect(await page.locator(delivered).first().locator("td").nth(1).textContent()).toBe(`${ns}/receiver`);
    expect(await page.locator(failed).first().textContent()).toContain("request to http://127.0.0.1:1 failed");
    // A new revision's notifications reach the open page as they are sent: no reload.
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
    await repo.commit(
      { "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: c\n" },
      "two",
    );
    await mgmt.client.patch(path("source.toolkit.fluxcd.io/v1", "gitrepositories", "app"), "merge", {
      metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": new Date().toISOString() } },
    });
    await page.locator(`${delivered}:has-text("ConfigMap/${ns}/cm configured")`).waitFor({ timeout: 120_000 });
    await page.locator(`${failed}:has-text("ConfigMap/${ns}/cm configured")`).waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(42);
    await screenshot(page, "dashboard-app-notifications");
    await close(page);
  }, 180_000);

  it("the management cluster's page lists the notifications of its apps, each naming its object", async () => {
    const delivered = 'tr[data-notification="receiver"][data-outcome="delivered"]';
    const page = await openUntil("#/cluster/management", delivered);
    expect(await page.locator(delivered).first().locator("td").nth(1).textContent()).toBe(`Kustomization/${ns}/app`);
    await close(page);
  });

  it("the Providers page shows the refusing Provider failing with its recent failures, its address as scheme and host", async () => {
    const refused = `section[data-provider="${ns}/refused"]`;
    const page = await openUntil("#/notifications", `${refused} tr[data-failure="DeliveryFailed"]`);
    const section = page.locator(refused);
    expect(await section.locator("h2 .badge").textContent()).toBe("Failing");
    expect(await section.locator("dl").textContent()).toContain("http://127.0.0.1:1");
    const failure = section.locator('tr[data-failure="NotificationDispatchFailed"]').first();
    expect(await failure.textContent()).toContain(`Kustomization/${ns}/app`);
    expect(await page.locator(`section[data-provider="${ns}/receiver"] h2 .badge`).textContent()).toBe("Ready");
    // GitHub App authentication is refused by name, naming the keys and not their values.
    await eventually(
      "the GitHub App Provider refused",
      async () => {
        await page.reload();
        const text = await page.locator(`section[data-provider="${ns}/github-app"]`).textContent();
        return text?.includes("UnsupportedField") ? text : undefined;
      },
      60_000,
      1000,
    ).then((text) => expect(text).toContain("githubAppID, githubAppInstallationID, githubAppPrivateKey"));
    await screenshot(page, "dashboard-providers");
    await close(page);
  }, 180_000);

  it("flotilla events lists the dispatch failures on the Alert and the Provider", async () => {
    const got = await runCli([
      "events",
      "-n",
      ns,
      "--types",
      "Warning",
      "--kubeconfig",
      plane("management").kubeconfig,
    ]);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(
      /NotificationDispatchFailed\s*\tAlert\/refused\s*\tfailed to send notification for Kustomization\//,
    );
    expect(got.stdout).toMatch(/DeliveryFailed\s*\tProvider\/refused\s*\t/);
    for (const secret of [DEAD_TOKEN, APP_KEY]) {
      expect(got.stdout).not.toContain(secret);
      expect(JSON.stringify(controller.logs)).not.toContain(secret);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
    expect(bodies.length).toBeGreaterThan(4);
  });
});
