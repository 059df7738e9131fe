// `flotilla status` on the local fleet, without any fleet kind: two Kustomizations applying to tenant1
// and tenant2 through their kubeconfig Secrets, the one on tenant2 deliberately broken (its path is not
// in the repository yet). The view groups them by the Secret they name, tenant2's first with the failing
// app's message; `-w` prints its recovery once a commit adds the path; `-o json` gives the same as data.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

let h: KustomizeHarness;
const remoteNs: Record<string, string> = {};
const mgmt = () => plane("management").kubeconfig;

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "status" });
  for (const t of ["tenant1", "tenant2"]) remoteNs[t] = await testNamespace(planeCluster(t).client, "status");
  await h.commit({ "ok/cm.yaml": configMap("ok", remoteNs.tenant1) }, "an app for tenant1");
  for (const [name, t, path] of [
    ["app-tenant1", "tenant1", "./ok"],
    ["app-tenant2", "tenant2", "./later"],
  ] as const) {
    const secret = await h.copyAdminKubeconfig(t);
    await h.createKs(name, {
      path,
      retryInterval: "2s",
      kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
    });
  }
  await h.waitReady("app-tenant1");
  await h.waitNotReady("app-tenant2");
}, 180_000);

afterAll(async () => {
  await h?.stop();
}, 120_000);

describe("flotilla status", () => {
  it("shows the cluster with the broken app first, with its message, grouped by the Secret each app names", async () => {
    const got = await runCli(["status", "-n", h.ns, "--kubeconfig", mgmt()]);
    expect(got.code, got.stderr).toBe(0);
    const lines = got.stdout.split("\n");
    expect(lines[0]).toMatch(/^CLUSTER\s+READY\s+VERSION\s+LAST PROBE\s+APPS FAILING\s+MESSAGE/);
    expect(lines[1]).toMatch(new RegExp(`^secret/${h.ns}/tenant2-admin-kubeconfig\\s+Unknown\\s+\\t.*1/1`));
    expect(lines[2]).toMatch(new RegExp(`^secret/${h.ns}/tenant1-admin-kubeconfig\\s+.*0/1`));
    const block = got.stdout.slice(got.stdout.indexOf(`\nsecret/${h.ns}/tenant2-admin-kubeconfig\n`));
    expect(block).toMatch(/Kustomization\s+\S+\s+app-tenant2\s+.*False\s+.*later/);

    const json = await runCli(["status", "-n", h.ns, "-o", "json", "--kubeconfig", mgmt()]);
    const view = JSON.parse(json.stdout) as {
      clusters: { cluster: string; apps: { name: string; ready: string }[] }[];
    };
    expect(view.clusters.map((c) => [c.cluster, c.apps.map((a) => `${a.name}=${a.ready}`)])).toEqual([
      [`secret/${h.ns}/tenant2-admin-kubeconfig`, ["app-tenant2=False"]],
      [`secret/${h.ns}/tenant1-admin-kubeconfig`, ["app-tenant1=True"]],
    ]);
  });

  it("-w prints the broken app's recovery when a commit adds its path", async () => {
    const child = spawn(process.execPath, ["bin/flotilla.js", "status", "-n", h.ns, "-w", "--kubeconfig", mgmt()]);
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    try {
      await eventually("the first view", async () => out.includes("app-tenant2"), 30_000);
      expect(out.split("\n")[0]).toMatch(/^CLUSTER\s+KIND\s+NAMESPACE\s+NAME/);
      await h.commit({ "later/cm.yaml": configMap("later", remoteNs.tenant2) }, "the path app-tenant2 reads");
      await eventually(
        "app-tenant2 printed Ready",
        async () => out.split("\n").some((l) => /app-tenant2\s+main@sha1:\S+\s+False\s+True\s+/.test(l)),
        120_000,
      );
    } finally {
      child.kill();
    }
  }, 180_000);
});
