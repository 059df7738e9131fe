// Flux's Receiver against the real `flotilla controller` process: a GitHub-style push webhook makes a
// GitRepository whose interval is 1h (so only the hook can explain it) fetch the pushed commit, and the
// Kustomization reading it apply the new content. A bad signature is refused with nothing written, an
// unknown path is 404, a suspended Receiver 503, and the types flotilla does not verify are refused by
// name with what is supported; a missing Secret or `token` key says which Secret, never a value.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { runCli } from "../support/cli.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import type { GitRepoHandle } from "../support/git-repository.js";

const cluster = planeCluster("management");
const client = cluster.client;
const TOKEN = randomBytes(24).toString("hex");

type Condition = { type: string; status: string; reason: string; message: string };
type Obj = {
  metadata: { name: string; resourceVersion: string; generation: number; annotations?: Record<string, string> };
  status?: {
    conditions?: Condition[];
    webhookPath?: string;
    observedGeneration?: number;
    artifact?: { revision: string };
    lastAppliedRevision?: string;
  };
};

let ns: string;
let git: GitHttpServer;
let repo: GitRepoHandle;
let controller: ControllerProcess;
let hookBase: string;
let sha1: string;
let sha2: string;

const receivers = () => `/apis/notification.toolkit.fluxcd.io/v1/namespaces/${ns}/receivers`;
const gitRepoPath = () => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/app`;
const ksPath = () => `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations/app`;
const labels = () => ({ "flotilla.dev/shard": ns });
const ready = (o: Obj) => o.status?.conditions?.find((c) => c.type === "Ready");
const cm = (v: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hooked\ndata:\n  version: "${v}"\n`;

async function createReceiver(name: string, spec: Record<string, unknown>) {
  await client.create(receivers(), {
    apiVersion: "notification.toolkit.fluxcd.io/v1",
    kind: "Receiver",
    metadata: { name, namespace: ns, labels: labels() },
    spec,
  });
}

/** The Receiver once its controller has handled this generation, Ready either way. */
const settled = (name: string, status: "True" | "False") =>
  eventually(
    `Receiver ${name} Ready=${status}`,
    async () => {
      const r = await client.get<Obj>(`${receivers()}/${name}`);
      return r.status?.observedGeneration === r.metadata.generation && ready(r)?.status === status ? r : undefined;
    },
    60_000,
  );

const githubPush = (path: string, body: string, signature: string) =>
  fetch(hookBase + path, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-GitHub-Event": "push",
      "X-GitHub-Delivery": randomBytes(8).toString("hex"),
      "X-Hub-Signature-256": signature,
    },
    body,
  });
const sign = (body: string, token = TOKEN) => `sha256=${createHmac("sha256", token).update(body).digest("hex")}`;
const pushBody = (sha: string) => JSON.stringify({ ref: "refs/heads/main", after: sha });

beforeAll(async () => {
  ns = await testNamespace(client, "receiver");
  git = await startGitHttpServer();
  repo = await git.createRepo(`receiver-${ns}`);
  sha1 = await repo.commit({ "app/cm.yaml": cm("1") }, "one");
  controller = startController({ namespace: ns, shard: ns, storagePath: makeWorkDir("flotilla-receiver-") });
  await eventually("the Receiver CRD served", () => client.get(receivers()).then(() => true), 60_000);
  await client.create(`/api/v1/namespaces/${ns}/secrets`, {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "webhook-token", namespace: ns },
    stringData: { token: TOKEN },
  });
  await client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "app", namespace: ns, labels: labels() },
    spec: { url: repo.url, interval: "1h", ref: { branch: "main" } },
  });
  await client.create(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations`, {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: "app", namespace: ns, labels: labels() },
    spec: {
      interval: "1h",
      path: "./app",
      prune: true,
      targetNamespace: ns,
      sourceRef: { kind: "GitRepository", name: "app" },
    },
  });
  hookBase = await controller.receiverUrl();
}, 180_000);

afterAll(async () => {
  controller?.child.kill("SIGTERM");
  await controller?.exited();
  await git?.close();
});

describe("Receiver (notification.toolkit.fluxcd.io/v1) with the real controller", () => {
  it("is Ready with Flux's webhook path: /hook/ + sha256(token + name + namespace)", async () => {
    await createReceiver("github", {
      type: "github",
      events: ["push"],
      secretRef: { name: "webhook-token" },
      resources: [{ kind: "GitRepository", name: "app" }],
    });
    const r = await settled("github", "True");
    const digest = createHash("sha256").update(`${TOKEN}github${ns}`).digest("hex");
    expect(r.status!.webhookPath).toBe(`/hook/${digest}`);
    expect(ready(r)).toMatchObject({ reason: "Succeeded", message: `Receiver initialized for path: /hook/${digest}` });
    expect(r.status!.conditions!.map((c) => c.type)).toEqual(["Ready"]);
    // v1 defaults the interval as Flux's CRD does; the older versions are served too.
    expect((await client.get<{ spec: { interval: string } }>(`${receivers()}/github`)).spec.interval).toBe("10m");
    const beta = await client.get<{ apiVersion: string }>(
      `/apis/notification.toolkit.fluxcd.io/v1beta2/namespaces/${ns}/receivers/github`,
    );
    expect(beta.apiVersion).toBe("notification.toolkit.fluxcd.io/v1beta2");
  });

  it("answers 404 for a path no Receiver has, and outside /hook/", async () => {
    const unknown = await githubPush(`/hook/${"0".repeat(64)}`, pushBody("x"), sign(pushBody("x")));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("");
    expect((await fetch(`${hookBase}/metrics`)).status).toBe(404);
  });

  it("refuses a bad signature (400) and writes nothing; a signed push then reconciles the GitRepository and the Kustomization", async () => {
    const receiver = await client.get<Obj>(`${receivers()}/github`);
    const path = receiver.status!.webhookPath!;
    // Converged on the first commit (and idle: interval 1h for both).
    await eventually(
      "the Kustomization at the first commit",
      async () => {
        const ks = await client.get<Obj>(ksPath());
        return ks.status?.lastAppliedRevision === `main@sha1:${sha1}` && ready(ks)?.status === "True";
      },
      90_000,
    );

    sha2 = await repo.commit({ "app/cm.yaml": cm("2") }, "two");
    const pushedAt = performance.now();
    const body = pushBody(sha2);

    const before = await client.get<Obj>(gitRepoPath());
    for (const signature of [sign(body, "not-the-token"), "sha256=" + "ab".repeat(32), ""]) {
      const res = await githubPush(path, body, signature);
      expect(res.status).toBe(400);
    }
    // The handler annotates before it answers: after a 400 nothing can still be on its way.
    const after = await client.get<Obj>(gitRepoPath());
    expect(after.metadata.annotations?.["reconcile.fluxcd.io/requestedAt"]).toBeUndefined();
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.status?.artifact?.revision).toBe(`main@sha1:${sha1}`);
    // A GitHub ping is an event like any other (Flux has no special case): not in spec.events, so 400.
    const ping = await fetch(hookBase + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-GitHub-Event": "ping", "X-Hub-Signature-256": sign("{}") },
      body: "{}",
    });
    expect(ping.status).toBe(400);

    const postedAt = performance.now();
    const res = await githubPush(path, body, sign(body));
    expect(res.status).toBe(200);
    const annotated = await client.get<Obj>(gitRepoPath());
    expect(annotated.metadata.annotations?.["reconcile.fluxcd.io/requestedAt"]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC m=\+\d+\.\d{9}$/,
    );

    await eventually(
      "the GitRepository at the pushed commit",
      async () => (await client.get<Obj>(gitRepoPath())).status?.artifact?.revision === `main@sha1:${sha2}`,
      90_000,
    );
    await eventually(
      "the Kustomization to apply the pushed commit",
      async () => {
        const ks = await client.get<Obj>(ksPath());
        return ks.status?.lastAppliedRevision === `main@sha1:${sha2}` && ready(ks)?.status === "True";
      },
      90_000,
    );
    const applied = await client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${ns}/configmaps/hooked`);
    expect(applied.data.version).toBe("2");
    const done = performance.now();
    process.stdout.write(
      `[receiver] push → GitRepository and Kustomization Ready: ${((done - pushedAt) / 1000).toFixed(2)}s ` +
        `(signed POST → Ready: ${((done - postedAt) / 1000).toFixed(2)}s)\n`,
    );
    const gr = await client.get<Obj>(gitRepoPath());
    expect(ready(gr)?.status).toBe("True");

    // The Receiver's Event says what it asked to reconcile.
    const events = await client.get<{ items: { reason: string; message: string; type: string }[] }>(
      `/api/v1/namespaces/${ns}/events`,
      { fieldSelector: "involvedObject.kind=Receiver,involvedObject.name=github" },
    );
    expect(events.items).toContainEqual(
      expect.objectContaining({
        type: "Normal",
        reason: "ReconcileRequested",
        message: `github event 'push': requested reconciliation of GitRepository/${ns}/app`,
      }),
    );
    // Tokens stay out of the controller's log.
    expect(JSON.stringify(controller.logs)).not.toContain(TOKEN);
  });

  it("generic-hmac with `*` + matchLabels and a CEL resourceFilter: only what the filter accepts is asked", async () => {
    await client.patch(gitRepoPath(), "merge", { metadata: { labels: { hook: "yes" } } });
    await createReceiver("hmac", {
      type: "generic-hmac",
      secretRef: { name: "webhook-token" },
      resources: [{ kind: "GitRepository", name: "*", matchLabels: { hook: "yes" } }],
      resourceFilter: "req.app == res.metadata.name",
    });
    const path = (await settled("hmac", "True")).status!.webhookPath!;
    const post = (body: string, signature = `sha512=${createHmac("sha512", TOKEN).update(body).digest("hex")}`) =>
      fetch(hookBase + path, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Signature": signature },
        body,
      });
    const stamp = async () =>
      (await client.get<Obj>(gitRepoPath())).metadata.annotations?.["reconcile.fluxcd.io/requestedAt"];
    const before = await stamp();
    expect((await post('{"app":"other"}')).status).toBe(200);
    expect(await stamp()).toBe(before);
    expect((await post('{"app":"app"}', "sha512=00")).status).toBe(400);
    expect(await stamp()).toBe(before);
    expect((await post('{"app":"app"}')).status).toBe(200);
    expect(await stamp()).not.toBe(before);
  });

  it("answers 503 while the Receiver is suspended", async () => {
    const path = (await client.get<Obj>(`${receivers()}/github`)).status!.webhookPath!;
    await client.patch(`${receivers()}/github`, "merge", { spec: { suspend: true } });
    const body = pushBody(sha2);
    await eventually(
      "503 from the suspended Receiver",
      async () => (await githubPush(path, body, sign(body))).status === 503,
    );
    await client.patch(`${receivers()}/github`, "merge", { spec: { suspend: false } });
    await eventually("200 once resumed", async () => (await githubPush(path, body, sign(body))).status === 200);
  });

  it("refuses the types flotilla does not verify: Stalled, naming the type and the supported ones", async () => {
    await createReceiver("bitbucket", {
      type: "bitbucket",
      secretRef: { name: "webhook-token" },
      resources: [{ kind: "GitRepository", name: "app" }],
    });
    const r = await settled("bitbucket", "False");
    expect(ready(r)).toMatchObject({
      reason: "UnsupportedField",
      message:
        "spec.type 'bitbucket' is not supported by flotilla: the receiver types flotilla verifies are generic, generic-hmac, github, gitlab (generic-hmac takes an X-Signature HMAC of the body from any sender)",
    });
    expect(r.status!.conditions!.find((c) => c.type === "Stalled")?.status).toBe("True");
    expect(r.status!.webhookPath).toBeUndefined();
  });

  it("names the Secret when it is missing or has no token key, and serves no path", async () => {
    await createReceiver("no-secret", {
      type: "generic",
      secretRef: { name: "absent" },
      resources: [{ kind: "GitRepository", name: "app" }],
    });
    await client.create(`/api/v1/namespaces/${ns}/secrets`, {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "tokenless", namespace: ns },
      stringData: { password: "hunter2-not-a-token" },
    });
    await createReceiver("no-token", {
      type: "generic",
      secretRef: { name: "tokenless" },
      resources: [{ kind: "GitRepository", name: "app" }],
    });
    const missing = await settled("no-secret", "False");
    expect(ready(missing)).toMatchObject({
      reason: "TokenNotFound",
      message: `unable to read token from secret '${ns}/absent' error: secrets "absent" not found`,
    });
    const tokenless = await settled("no-token", "False");
    expect(ready(tokenless)).toMatchObject({
      reason: "TokenNotFound",
      message: `invalid '${ns}/tokenless' secret data: required fields 'token'`,
    });
    expect(JSON.stringify(tokenless)).not.toContain("hunter2");
    expect(tokenless.status!.webhookPath).toBeUndefined();
  });

  it("flotilla create receiver, get receivers and reconcile receiver print what flux prints", async () => {
    const cli = (...args: string[]) =>
      runCli([...args, "-n", ns, "--kubeconfig", plane("management").kubeconfig], { timeoutMs: 90_000 });
    const created = await cli(
      "create",
      "receiver",
      "gitlab",
      "--type",
      "gitlab",
      "--event",
      "Push Hook",
      "--secret-ref",
      "webhook-token",
      "--resource",
      "GitRepository/app",
      "--label",
      `flotilla.dev/shard=${ns}`,
    );
    expect(created.code, created.stderr).toBe(0);
    const digest = createHash("sha256").update(`${TOKEN}gitlab${ns}`).digest("hex");
    expect(created.stderr).toContain("✔ Receiver gitlab is ready\n");
    expect(created.stderr).toContain(`✔ generated webhook URL /hook/${digest}\n`);

    const got = await cli("get", "receivers");
    expect(got.code, got.stderr).toBe(0);
    // flux's tablewriter: tab-separated, padded, each row ending in a tab.
    const lines = got.stdout.split("\n").map((l) =>
      l
        .replace(/\t$/, "")
        .split("\t")
        .map((c) => c.trim()),
    );
    expect(lines[0]).toEqual(["NAME", "SUSPENDED", "READY", "MESSAGE"]);
    expect(lines).toContainEqual(["gitlab", "False", "True", `Receiver initialized for path: /hook/${digest}`]);

    const reconciled = await cli("reconcile", "receiver", "gitlab");
    expect(reconciled.code, reconciled.stderr).toBe(0);
    expect(reconciled.stderr).toContain("✔ Receiver reconciliation completed\n");

    // And the GitLab hook works: the token header, the event filter.
    const hook = (token: string, event: string) =>
      fetch(`${hookBase}/hook/${digest}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Gitlab-Token": token, "X-Gitlab-Event": event },
        body: "{}",
      });
    expect((await hook("wrong", "Push Hook")).status).toBe(400);
    expect((await hook(TOKEN, "Tag Push Hook")).status).toBe(400);
    expect((await hook(TOKEN, "Push Hook")).status).toBe(200);
  });
});
