// The fleet's own events through Flux's Alerts, with the real `flotilla controller` process on the shared
// fleet: a FleetKustomization with a one-stage rollout onto tenant1 tells a generic-hmac receiver (signed)
// that the stage started and completed and that tenant1's child is Ready, the cluster named in the
// metadata; a Cluster whose kubeconfig stops working is an error event, and its return an info event; an
// error-only Alert on the same kinds receives the errors and nothing else (decision 0046); a refused
// delivery is a Warning event on the Provider and the Alert, which `flotilla events` shows, token-free;
// a Secret missing the address or the HMAC key is stated on the Provider's Ready.
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import { runCli } from "../support/cli.js";
import { copyKubeconfig } from "../support/harness.js";

const mgmt = planeCluster("management");
const tenant1 = planeCluster("tenant1");
const TOKEN = randomBytes(16).toString("hex");
const DEAD_TOKEN = `dead${randomBytes(8).toString("hex")}`;
const NC = "notification.toolkit.fluxcd.io/v1beta3";
const FLEET = "fleet.flotilla.dev/v1alpha1";

type Received = { path: string; headers: IncomingHttpHeaders; body: string };
type FluxEventBody = {
  involvedObject: { kind: string; name: string; namespace: string };
  severity: string;
  reason: string;
  message: string;
  metadata?: Record<string, string>;
  reportingController: string;
};

let ns: string;
let remoteNs: string;
let git: GitHttpServer;
let controller: ControllerProcess;
let receiver: Server;
let receiverUrl: string;
let flakyKubeconfig: string;
const received: Received[] = [];

/** The events received at `path`, those from `since` (an index into `received`) on. */
const events = (path: string, since = 0) =>
  received
    .slice(since)
    .filter((r) => r.path === path)
    .map((r) => JSON.parse(r.body) as FluxEventBody);
const labels = () => ({ "flotilla.dev/shard": ns });
const path = (apiVersion: string, plural: string, name?: string) =>
  `${apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`}/namespaces/${ns}/${plural}${name ? `/${name}` : ""}`;
const create = (
  apiVersion: string,
  kind: string,
  plural: string,
  name: string,
  { labels: extra, ...body }: Record<string, unknown>,
) =>
  mgmt.client.create(path(apiVersion, plural), {
    apiVersion,
    kind,
    metadata: { name, namespace: ns, labels: { ...labels(), ...((extra as object) ?? {}) } },
    ...body,
  });
const cluster = (name: string, secret: string, env: string) =>
  create(FLEET, "Cluster", "clusters", name, {
    labels: { env },
    spec: { kubeConfig: { secretRef: { name: secret, key: "admin.conf" } }, interval: "5s" },
  });
const setKubeconfig = (secret: string, kubeconfig: string) =>
  mgmt.client.patch(path("v1", "secrets", secret), "merge", {
    data: { "admin.conf": Buffer.from(kubeconfig).toString("base64") },
  });

beforeAll(async () => {
  ns = await testNamespace(mgmt.client, "notify-fleet");
  remoteNs = await testNamespace(tenant1.client, "notify-fleet");
  git = await startGitHttpServer();
  const repo = await git.createRepo(`notify-fleet-${ns}`);
  await repo.commit(
    { "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: b\n" },
    "one",
  );
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  controller = startController({ namespace: ns, shard: ns, storagePath: makeWorkDir("flotilla-notify-fleet-") });
  await eventually(
    "the Alert and Cluster CRDs served",
    async () =>
      Promise.all([mgmt.client.get(path(NC, "alerts")), mgmt.client.get(path(FLEET, "clusters"))]).then(() => true),
    90_000,
  );
  await create("v1", "Secret", "secrets", "hmac", { stringData: { token: TOKEN, address: `${receiverUrl}/hmac` } });
  await create(NC, "Provider", "providers", "hmac", { spec: { type: "generic-hmac", secretRef: { name: "hmac" } } });
  await create(NC, "Provider", "providers", "errors", { spec: { type: "generic", address: `${receiverUrl}/errors` } });
  const fleetSources = [
    { kind: "FleetKustomization", name: "*" },
    { kind: "Cluster", name: "*" },
  ];
  await create(NC, "Alert", "alerts", "fleet", { spec: { providerRef: { name: "hmac" }, eventSources: fleetSources } });
  // Nothing listens on port 1 of loopback; the path stands for a webhook URL's embedded token.
  await create(NC, "Provider", "providers", "refused", {
    spec: { type: "generic", address: `http://127.0.0.1:1/hooks/${DEAD_TOKEN}`, timeout: "2s" },
  });
  await create(NC, "Alert", "alerts", "refused", {
    spec: { providerRef: { name: "refused" }, eventSources: [{ kind: "FleetKustomization", name: "*" }] },
  });
  // Secrets missing the key their Provider needs: the address (only a token there), the HMAC key.
  await create("v1", "Secret", "secrets", "no-address", { stringData: { token: DEAD_TOKEN } });
  await create("v1", "Secret", "secrets", "no-token", { stringData: { address: `${receiverUrl}/never` } });
  await create(NC, "Provider", "providers", "no-address", {
    spec: { type: "generic", secretRef: { name: "no-address" } },
  });
  await create(NC, "Provider", "providers", "no-token", {
    spec: { type: "generic-hmac", secretRef: { name: "no-token" } },
  });
  for (const p of ["no-address", "no-token"])
    await create(NC, "Alert", "alerts", p, {
      spec: { providerRef: { name: p }, eventSources: [{ kind: "FleetKustomization", name: "*" }] },
    });
  await create(NC, "Alert", "alerts", "fleet-errors", {
    spec: { providerRef: { name: "errors" }, eventSeverity: "error", eventSources: fleetSources },
  });
  await copyKubeconfig(mgmt, "tenant1", ns);
  flakyKubeconfig = await copyKubeconfig(mgmt, "tenant2", ns, { name: "flaky-kubeconfig" });
  await cluster("tenant1", "tenant1-admin-kubeconfig", "e2e");
  await cluster("flaky", flakyKubeconfig, "other");
  await create("source.toolkit.fluxcd.io/v1", "GitRepository", "gitrepositories", "app", {
    spec: { url: repo.url, interval: "1h", ref: { branch: "main" } },
  });
  await eventually(
    "the Alerts Ready",
    async () => {
      const a = await mgmt.client.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
        path(NC, "alerts", "fleet"),
      );
      return a.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");
    },
    90_000,
  );
  await create(FLEET, "FleetKustomization", "fleetkustomizations", "app", {
    spec: {
      clusterSelector: { matchLabels: { env: "e2e" } },
      template: {
        metadata: { labels: labels() },
        spec: {
          sourceRef: { kind: "GitRepository", name: "app" },
          path: "./app",
          interval: "1h",
          prune: true,
          targetNamespace: remoteNs,
        },
      },
      rollout: { stages: [{ name: "canary", clusterSelector: { matchLabels: { env: "e2e" } } }] },
    },
  });
}, 240_000);

afterAll(async () => {
  controller?.child.kill("SIGTERM");
  await controller?.exited();
  await git?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
});

describe("the fleet's own events through Alerts", () => {
  it("a FleetKustomization's rollout stage and per-cluster events reach a generic-hmac receiver, the cluster named", async () => {
    const ready = await eventually(
      "tenant1's child Ready, told at /hmac",
      async () =>
        events("/hmac").find((e) => e.involvedObject.kind === "FleetKustomization" && e.reason === "ClusterReconciled"),
      180_000,
    );
    expect(ready.involvedObject).toMatchObject({ name: "app", namespace: ns });
    expect(ready.severity).toBe("info");
    expect(ready.reportingController).toBe("flotilla-controller");
    // The fleet group's prefix stripped by Flux's metadata cleanup, as a Kustomization's revision is.
    expect(ready.metadata).toEqual({ cluster: "tenant1", revision: expect.stringMatching(/^main@sha1:[0-9a-f]{40}$/) });
    expect(ready.message).toBe(`cluster tenant1: app-tenant1 Ready at ${ready.metadata!.revision}`);
    const stage = (reason: string) =>
      events("/hmac").find((e) => e.reason === reason && e.involvedObject.name === "app");
    const started = await eventually("the stage started", async () => stage("RolloutStageStarted"));
    const completed = await eventually("the stage completed", async () => stage("RolloutStageCompleted"), 120_000);
    for (const e of [started, completed]) expect(e.metadata).toMatchObject({ stage: "canary" });
    expect(completed.message).toMatch(/^stage canary completed revision main@sha1:[0-9a-f]{40} on tenant1$/);
    for (const r of received.filter((x) => x.path === "/hmac"))
      expect(r.headers["x-signature"]).toBe(`sha256=${createHmac("sha256", TOKEN).update(r.body).digest("hex")}`);
  }, 240_000);

  it("a Cluster that stops answering is an error event, and its return an info event", async () => {
    await eventually(
      "the flaky Cluster Ready first",
      async () => {
        const c = await mgmt.client.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
          path(FLEET, "clusters", "flaky"),
        );
        return c.status?.conditions?.some((x) => x.type === "Ready" && x.status === "True");
      },
      90_000,
    );
    const secret = await mgmt.client.get<{ data: Record<string, string> }>(path("v1", "secrets", flakyKubeconfig));
    const good = Buffer.from(secret.data["admin.conf"]!, "base64").toString("utf8");
    // Only what arrives from now on counts (a probe failing under load earlier must not pass this test).
    const mark = received.length;
    // Nothing listens on port 1 of loopback: the probe is refused.
    await setKubeconfig(flakyKubeconfig, good.replace(/server: \S+/, "server: https://127.0.0.1:1"));
    const down = await eventually(
      "the flaky Cluster's failure at /errors",
      async () =>
        events("/errors", mark).find((e) => e.involvedObject.kind === "Cluster" && e.involvedObject.name === "flaky"),
      90_000,
    );
    expect(down.severity).toBe("error");
    expect(down.message).toContain("127.0.0.1:1");
    await setKubeconfig(flakyKubeconfig, good);
    const back = await eventually(
      "the flaky Cluster's return at /hmac",
      async () =>
        events("/hmac", mark).find((e) => e.involvedObject.name === "flaky" && e.reason === "ClusterReachable"),
      90_000,
    );
    expect(back).toMatchObject({ severity: "info", involvedObject: { kind: "Cluster", namespace: ns } });
    expect(back.metadata).toEqual({ cluster: "flaky" });
    expect(back.message).toMatch(
      /^cluster flaky reachable again \(not Ready since \d{4}-\d\d-\d\dT[\d:]+Z\): Kubernetes v/,
    );
  }, 240_000);

  it("flotilla events shows a refused delivery on the Provider and on the Alert, without the address's token", async () => {
    const eventsFor = async (object: string, reason: string) => {
      const got = await runCli(["events", "-n", ns, "--for", object, "--kubeconfig", plane("management").kubeconfig]);
      return got.code === 0 && got.stdout.includes(reason) ? got.stdout : undefined;
    };
    const provider = await eventually(
      "DeliveryFailed on the Provider",
      () => eventsFor("Provider/refused", "DeliveryFailed"),
      90_000,
    );
    const line = provider.split("\n").find((l) => l.includes("DeliveryFailed"))!;
    expect(line).toMatch(/\tWarning\s*\tDeliveryFailed\s*\tProvider\/refused\s*\t/);
    expect(line).toContain("request to http://127.0.0.1:1 failed");
    const alert = await eventually("NotificationDispatchFailed on the Alert", () =>
      eventsFor("Alert/refused", "NotificationDispatchFailed"),
    );
    expect(alert).toContain("failed to send notification for FleetKustomization/");
    for (const out of [provider, alert]) expect(out).not.toContain(DEAD_TOKEN);
    expect(JSON.stringify(controller.logs)).not.toContain(DEAD_TOKEN);
  }, 180_000);

  it("a Secret missing the key its Provider needs is stated on the Provider, and reconciles go on", async () => {
    const readyOf = async (name: string) => {
      const p = await mgmt.client.get<{
        status?: { conditions?: { type: string; status: string; reason: string; message: string }[] };
      }>(path(NC, "providers", name));
      return p.status?.conditions?.find((c) => c.type === "Ready" && c.status === "False");
    };
    const noAddress = await eventually("no-address not Ready", () => readyOf("no-address"), 60_000);
    expect(noAddress).toMatchObject({
      reason: "AddressNotSet",
      message: "no address: set spec.address or the 'address' key of the secretRef's Secret",
    });
    // The HMAC key is needed to sign a payload: said once an event was to be sent.
    const noToken = await eventually("no-token not Ready", () => readyOf("no-token"), 90_000);
    expect(noToken).toMatchObject({
      reason: "DeliveryFailed",
      message: "generic-hmac needs the HMAC key: the secretRef's 'token' key is missing or empty",
    });
    expect(received.some((r) => r.path === "/never")).toBe(false);
    // Meanwhile the FleetKustomization reconciled on (its events reached /hmac, test 1).
    expect(JSON.stringify([noAddress, noToken, controller.logs])).not.toContain(DEAD_TOKEN);
  }, 120_000);

  it("the error-only Alert on the fleet kinds received errors and nothing else", async () => {
    // Positive evidence both Alerts saw the same objects: /hmac holds the info events the other did not get.
    expect(events("/hmac").some((e) => e.severity === "info" && e.involvedObject.kind === "Cluster")).toBe(true);
    expect(events("/errors").length).toBeGreaterThan(0);
    expect(events("/errors").every((e) => e.severity === "error")).toBe(true);
    expect(events("/errors").some((e) => e.reason === "ClusterReachable" || e.reason === "ClusterReconciled")).toBe(
      false,
    );
  });
});
