// Flux's Alerts and Providers against the real `flotilla controller` process on the shared management
// plane: the controllers' own events reach a generic-hmac receiver on loopback, signed with the Secret's
// token; an error-only Alert receives only errors; the real Alertmanager holds the alert of a failed
// Kustomization; slack, msteams and discord payloads arrive; Flux's event endpoint takes a Flux
// controller's event; a Provider flotilla cannot use says why on its status without a Secret value; and
// a dead provider does not hold reconciles up (100 Kustomizations with and without it, same run).
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type Alertmanager, startAlertmanager } from "../support/alertmanager.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import { type StallingServer, startStallingServer } from "../support/stalling-server.js";

const client = planeCluster("management").client;
const TOKEN = randomBytes(16).toString("hex");
const DEAD_TOKEN = `dead${randomBytes(8).toString("hex")}`;
const N = 100;
const NC = "notification.toolkit.fluxcd.io/v1beta3";

type Received = { path: string; headers: IncomingHttpHeaders; body: string };
type Cond = { type: string; status: string; reason: string; message: string };
type FluxEventBody = {
  involvedObject: { kind: string; name: string; namespace: string };
  severity: string;
  reason: string;
  message: string;
  metadata?: Record<string, string>;
  reportingController: string;
};

let ns: string;
let quietNs: string;
let git: GitHttpServer;
let controller: ControllerProcess;
let alertmanager: Alertmanager;
let stalling: StallingServer;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
const figures: Record<string, number> = {};

const shard = () => ({ "flotilla.dev/shard": ns });
const at = (path: string) => received.filter((r) => r.path === path);
const events = (path: string) => at(path).map((r) => JSON.parse(r.body) as FluxEventBody);

async function create(
  namespace: string,
  plural: string,
  apiVersion: string,
  kind: string,
  name: string,
  spec: unknown,
) {
  const base = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  await client.create(`${base}/namespaces/${namespace}/${plural}`, {
    apiVersion,
    kind,
    metadata: { name, namespace, labels: shard() },
    ...(kind === "Secret" ? { stringData: spec } : { spec }),
  });
}
const provider = (namespace: string, name: string, spec: Record<string, unknown>) =>
  create(namespace, "providers", NC, "Provider", name, spec);
const alert = (namespace: string, name: string, spec: Record<string, unknown>) =>
  create(namespace, "alerts", NC, "Alert", name, spec);
const kustomization = (namespace: string, name: string, path: string) =>
  create(namespace, "kustomizations", "kustomize.toolkit.fluxcd.io/v1", "Kustomization", name, {
    interval: "1h",
    path,
    prune: true,
    targetNamespace: namespace,
    namePrefix: `${name}-`,
    sourceRef: { kind: "GitRepository", name: "app", namespace: ns },
  });
const readyOf = async (plural: string, namespace: string, name: string) => {
  const o = await client.get<{ status?: { conditions?: Cond[] } }>(
    `/apis/${plural.startsWith("kustomizations") ? "kustomize.toolkit.fluxcd.io/v1" : NC}/namespaces/${namespace}/${plural}/${name}`,
  );
  return o.status?.conditions?.find((c) => c.type === "Ready");
};

beforeAll(async () => {
  ns = await testNamespace(client, "notify");
  quietNs = await testNamespace(client, "notify-quiet");
  git = await startGitHttpServer();
  const repo = await git.createRepo(`notify-${ns}`);
  await repo.commit(
    {
      "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: b\n",
      // A build that fails (BuildFailed, a Warning event): the resource it names is not there.
      "bad/kustomization.yaml":
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - nope.yaml\n",
    },
    "one",
  );
  alertmanager = await startAlertmanager();
  stalling = await startStallingServer();
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
  controller = startController({
    namespace: ns,
    shard: ns,
    storagePath: makeWorkDir("flotilla-notify-"),
    extraArgs: ["--concurrent", "8"],
  });
  await eventually(
    "the Alert CRD served",
    () => client.get(`/apis/${NC}/namespaces/${ns}/alerts`).then(() => true),
    90_000,
  );
  await create(ns, "secrets", "v1", "Secret", "hmac", { token: TOKEN, address: `${receiverUrl}/hmac` });
  await provider(ns, "hmac", { type: "generic-hmac", secretRef: { name: "hmac" } });
  await provider(ns, "errors", { type: "generic", address: `${receiverUrl}/errors` });
  await provider(ns, "am", { type: "alertmanager", address: `${alertmanager.url}/api/v2/alerts` });
  await provider(ns, "slack", { type: "slack", address: `${receiverUrl}/slack`, channel: "#flux" });
  await provider(ns, "teams", { type: "msteams", address: `${receiverUrl}/teams` });
  await provider(ns, "discord", { type: "discord", address: `${receiverUrl}/discord` });
  await alert(ns, "everything", {
    providerRef: { name: "hmac" },
    eventSources: [
      { kind: "GitRepository", name: "*" },
      { kind: "Kustomization", name: "*" },
    ],
    eventMetadata: { env: "e2e" },
  });
  await alert(ns, "errors-only", {
    providerRef: { name: "errors" },
    eventSeverity: "error",
    eventSources: [{ kind: "Kustomization", name: "*" }],
  });
  await alert(ns, "am", {
    providerRef: { name: "am" },
    eventSeverity: "error",
    eventSources: [{ kind: "Kustomization", name: "broken" }],
    summary: "broken app",
  });
  for (const p of ["slack", "teams", "discord"])
    await alert(ns, p, { providerRef: { name: p }, eventSources: [{ kind: "Kustomization", name: "app" }] });
  await eventually(
    "the Alerts Ready",
    async () => (await readyOf("alerts", ns, "everything"))?.status === "True",
    60_000,
  );
  await create(ns, "gitrepositories", "source.toolkit.fluxcd.io/v1", "GitRepository", "app", {
    url: repo.url,
    interval: "1h",
    ref: { branch: "main" },
  });
  await kustomization(ns, "app", "./app");
  await kustomization(ns, "broken", "./bad");
}, 240_000);

afterAll(async () => {
  // With deliveries still stuck on the stalling server: stopping aborts them, the process exits at once.
  const stopAt = Date.now();
  controller?.child.kill("SIGTERM");
  await controller?.exited();
  figures.exitAfterSigtermSeconds = (Date.now() - stopAt) / 1000;
  await stalling?.close();
  await git?.close();
  await alertmanager?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  if (Object.keys(figures).length) console.log(`notification figures: ${JSON.stringify(figures)}`);
});

describe("Alerts and Providers (notification.toolkit.fluxcd.io/v1beta3) with the real controller", () => {
  it("delivers GitRepository and Kustomization events to a generic-hmac receiver, signed with the Secret's token", async () => {
    await eventually(
      "events of both kinds at /hmac, the app's applied (info) among them",
      async () => {
        const got = events("/hmac");
        return (
          got.some((e) => e.involvedObject.kind === "GitRepository") &&
          got.some(
            (e) =>
              e.involvedObject.kind === "Kustomization" && e.involvedObject.name === "app" && e.severity === "info",
          )
        );
      },
      120_000,
    );
    for (const r of at("/hmac")) {
      expect(r.headers["x-signature"]).toBe(`sha256=${createHmac("sha256", TOKEN).update(r.body).digest("hex")}`);
      expect(r.body).not.toContain(TOKEN);
    }
    const applied = events("/hmac").find(
      (e) => e.involvedObject.kind === "Kustomization" && e.involvedObject.name === "app" && e.severity === "info",
    )!;
    expect(applied.involvedObject).toMatchObject({ name: "app", namespace: ns });
    expect(applied.reportingController).toBe("kustomize-controller");
    expect(at("/hmac")[0]!.headers["gotk-component"]).toMatch(/-controller$/);
    // The Alert's eventMetadata and the event's revision, prefixes stripped as Flux does.
    expect(applied.metadata).toMatchObject({ env: "e2e", revision: expect.stringMatching(/^main@sha1:[0-9a-f]{40}$/) });
  });

  it("an error-only Alert receives only errors (while the same objects' info events went elsewhere)", async () => {
    await eventually(
      "an error at /errors",
      async () => events("/errors").some((e) => e.involvedObject.name === "broken"),
      120_000,
    );
    await eventually("an info event for the same kind at /hmac", async () =>
      events("/hmac").some((e) => e.severity === "info" && e.involvedObject.kind === "Kustomization"),
    );
    expect(events("/errors").length).toBeGreaterThan(0);
    expect(events("/errors").every((e) => e.severity === "error")).toBe(true);
    expect(events("/errors").some((e) => e.involvedObject.name === "app")).toBe(false);
  });

  it("the real Alertmanager holds the alert of the failed Kustomization", async () => {
    const held = await eventually(
      "the alert in Alertmanager",
      async () => (await alertmanager.alerts()).find((a) => a.labels.name === "broken" && a.labels.namespace === ns),
      120_000,
    );
    expect(held.labels).toMatchObject({
      kind: "Kustomization",
      severity: "error",
      reportingcontroller: "kustomize-controller",
    });
    expect(held.labels.alertname).toMatch(/^FluxKustomization[A-Z][a-z]+$/);
    expect(held.annotations.summary).toBe("broken app");
    expect(held.annotations.message).toMatch(/nope\.yaml/);
  });

  it("slack, msteams and discord payloads reach their addresses (discord's at <hook>/slack)", async () => {
    await eventually(
      "all three",
      async () => at("/slack").length > 0 && at("/teams").length > 0 && at("/discord/slack").length > 0,
      120_000,
    );
    const slack = JSON.parse(at("/slack")[0]!.body) as {
      channel: string;
      attachments: { author_name: string; color: string }[];
    };
    expect(slack.channel).toBe("#flux");
    expect(slack.attachments[0]!.author_name).toBe(`kustomization/app.${ns}`);
    const teams = JSON.parse(at("/teams")[0]!.body) as { type: string; attachments: { contentType: string }[] };
    expect(teams.attachments[0]!.contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(JSON.parse(at("/discord/slack")[0]!.body)).toMatchObject({ username: "kustomize-controller" });
  });

  it("takes a Flux controller's event on Flux's event endpoint, and answers a duplicate with 429", async () => {
    const url = await controller.eventsUrl();
    const body = JSON.stringify({
      involvedObject: {
        kind: "Kustomization",
        namespace: ns,
        name: "from-flux",
        apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      },
      severity: "info",
      timestamp: "2026-01-01T00:00:00Z",
      message: `posted by a Flux controller ${randomBytes(4).toString("hex")}`,
      reason: "ReconciliationSucceeded",
      metadata: {
        "kustomize.toolkit.fluxcd.io/revision": "main@sha1:abc",
        "kustomize.toolkit.fluxcd.io/checksum": "x",
      },
      reportingController: "kustomize-controller",
    });
    const post = () => fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    expect((await post()).status).toBe(202);
    expect((await post()).status).toBe(429);
    expect((await fetch(url, { method: "POST", body: "not json" })).status).toBe(400);
    const got = await eventually("the posted event at /hmac", async () =>
      events("/hmac").find((e) => e.involvedObject.name === "from-flux"),
    );
    // Flux's cleanup: the checksum is dropped, the revision kept (prefix stripped).
    expect(got.metadata).toEqual({ env: "e2e", revision: "main@sha1:abc" });
  });

  it("states on the Provider what stops it — an unsupported type by name, a missing Secret, a failing address — with no Secret value", async () => {
    await provider(ns, "sentry", { type: "sentry", address: "http://127.0.0.1:1" });
    await provider(ns, "no-secret", { type: "generic", secretRef: { name: "absent" } });
    await provider(ns, "refused", {
      type: "generic",
      address: `http://127.0.0.1:1/hooks/${DEAD_TOKEN}`,
      timeout: "3s",
    });
    await alert(ns, "refused", {
      providerRef: { name: "refused" },
      eventSources: [{ kind: "Kustomization", name: "*" }],
    });
    const sentry = await eventually(
      "sentry refused",
      async () => (await readyOf("providers", ns, "sentry"))?.status === "False" && readyOf("providers", ns, "sentry"),
    );
    expect(await sentry).toMatchObject({
      reason: "UnsupportedType",
      message: expect.stringContaining("provider type 'sentry' is not supported"),
    });
    const noSecret = await eventually("no-secret refused", async () => {
      const r = await readyOf("providers", ns, "no-secret");
      return r?.status === "False" ? r : undefined;
    });
    expect(noSecret).toMatchObject({
      reason: "SecretNotFound",
      message: `spec.secretRef: Secret '${ns}/absent' not found`,
    });
    await eventually(
      "the refused Alert Ready",
      async () => (await readyOf("alerts", ns, "refused"))?.status === "True",
    );
    // A new event (an identical one inside the rate-limit interval would be dropped): posted as Flux would.
    const posted = await fetch(await controller.eventsUrl(), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        involvedObject: {
          kind: "Kustomization",
          namespace: ns,
          name: "for-refused",
          apiVersion: "kustomize.toolkit.fluxcd.io/v1",
        },
        severity: "error",
        timestamp: "2026-01-01T00:00:00Z",
        message: `failed ${randomBytes(4).toString("hex")}`,
        reason: "BuildFailed",
        reportingController: "kustomize-controller",
      }),
    });
    expect(posted.status).toBe(202);
    const failed = await eventually(
      "the refused provider's failure on its status",
      async () => {
        const r = await readyOf("providers", ns, "refused");
        return r?.reason === "DeliveryFailed" ? r : undefined;
      },
      90_000,
    );
    expect(failed.message).toContain("http://127.0.0.1:1");
    expect(failed.message).not.toContain(DEAD_TOKEN);
    const warnings = await eventually(
      "the Alert's NotificationDispatchFailed event",
      async () => {
        const list = await client.get<{
          items: { reason: string; message: string; involvedObject: { name: string } }[];
        }>(`/api/v1/namespaces/${ns}/events`);
        const mine = list.items.filter(
          (e) => e.reason === "NotificationDispatchFailed" && e.involvedObject.name === "refused",
        );
        return mine.length ? mine : undefined;
      },
      60_000,
    );
    for (const w of warnings) expect(w.message).not.toContain(DEAD_TOKEN);
    const logs = JSON.stringify(controller.logs);
    expect(logs).not.toContain(DEAD_TOKEN);
    expect(logs).not.toContain(TOKEN);
  });

  it(`a dead provider does not hold reconciles up: ${N} Kustomizations without alerts, then ${N} with an Alert to a provider that never answers`, async () => {
    await create(quietNs, "secrets", "v1", "Secret", "unused", { x: "y" });
    const deadNs = ns;
    await provider(deadNs, "dead", { type: "generic", address: `${stalling.url}/hook`, timeout: "30s" });
    await alert(deadNs, "dead", {
      providerRef: { name: "dead" },
      eventSources: [{ kind: "Kustomization", name: "*" }],
    });
    await eventually("the dead Alert Ready", async () => (await readyOf("alerts", deadNs, "dead"))?.status === "True");
    const batch = async (namespace: string, prefix: string) => {
      const start = Date.now();
      for (let i = 0; i < N; i++) await kustomization(namespace, `${prefix}${i}`, "./app");
      await eventually(
        `${N} Kustomizations Ready in ${namespace}`,
        async () => {
          const list = await client.get<{ items: { metadata: { name: string }; status?: { conditions?: Cond[] } }[] }>(
            `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${namespace}/kustomizations`,
          );
          const ready = list.items.filter(
            (k) =>
              k.metadata.name.startsWith(prefix) &&
              k.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"),
          );
          return ready.length === N;
        },
        600_000,
        1000,
      );
      return (Date.now() - start) / 1000;
    };
    figures.withoutAlertsSeconds = await batch(quietNs, "q");
    figures.withDeadProviderSeconds = await batch(deadNs, "d");
    // Positive evidence the deliveries were stuck while the reconciles finished: the stalling server
    // still holds the dispatcher's connections now that all of them are Ready.
    figures.deliveriesHeldOpen = stalling.open;
    expect(stalling.open).toBeGreaterThan(0);
    expect(figures.withDeadProviderSeconds).toBeLessThan(figures.withoutAlertsSeconds * 2 + 30);
  }, 1_300_000);
});
