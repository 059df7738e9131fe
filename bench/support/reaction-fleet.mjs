// For bench/reaction.bench.mjs: the real `flotilla controller` process with a webhook receiver on a fixed
// loopback port, the fleet's objects (one GitRepository "apps" at interval 1h, K app Kustomizations per
// plane — tenants through spec.kubeConfig Secrets — and a GitHub Receiver), a signed GitHub push, stats.
import { spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createAppsSource, GR, isReady, KS } from "./controller-bench.mjs";

export const NS = "flux-system";
export const APPS_NS = "apps";
export const RCV = `/apis/notification.toolkit.fluxcd.io/v1/namespaces/${NS}/receivers`;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A child process whose last 40 stderr lines are kept (`tail()`); `stop()` is SIGTERM, then SIGKILL. */
export function startLogged(command, args, env = {}) {
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  const lines = [];
  child.stderr.on("data", (d) => {
    lines.push(...String(d).split("\n").filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 40));
  });
  return {
    child,
    dead: () => child.exitCode !== null || child.signalCode !== null,
    tail: () => `exit ${child.exitCode ?? child.signalCode ?? "-"}, last lines:\n${lines.join("\n")}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** `flotilla controller` as bench/support/controller-bench.mjs starts it, plus --receiver-addr; no leader election. */
export function startFlotillaController({ kubeconfig, storage, ports, limits }) {
  return startLogged(process.execPath, [
    "bin/flotilla.js",
    "controller",
    ...["--kubeconfig", kubeconfig, "--runtime-namespace", NS],
    ...["--concurrent", String(limits.concurrent), "--kube-api-qps", String(limits.qps)],
    ...["--kube-api-burst", String(limits.burst), "--storage-path", storage],
    `--storage-addr=127.0.0.1:${ports.storage}`,
    `--health-addr=127.0.0.1:${ports.health}`,
    `--receiver-addr=127.0.0.1:${ports.receiver}`,
    "--enable-leader-election=false",
    "--kamaji-discovery=false",
    "--install-crds",
    ...["--log-level", process.env.FLOTILLA_BENCH_LOG_LEVEL ?? "error"],
  ]);
}

/** Polls `fn` every `intervalMs` until truthy; its value. Fails at once if `alive()` says the controller died. */
export async function waitFor(what, fn, timeoutMs, intervalMs = 100, alive = () => true) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error(`the controller exited while waiting for ${what}`);
    const got = await fn().catch(() => undefined);
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** Creates, or leaves what already exists. */
export const ensure = (client, path, o) =>
  client.create(path, o).catch((e) => (e.name === "AlreadyExistsError" ? undefined : Promise.reject(e)));

/** The Kustomization names of a plane: `<plane>-app-<i>`. */
export const ksName = (plane, i) => `${plane}-app-${i}`;

/**
 * On the management plane: the token Secret, the tenants' kubeconfig Secrets (their admin kubeconfig files,
 * key admin.conf), the GitRepository (1h), K Kustomizations per plane (1h) and the Receiver; its hook path.
 */
export async function createFleetObjects({ mgmt, planes, url, apps, token, alive }) {
  const secrets = `/api/v1/namespaces/${NS}/secrets`;
  await mgmt.create(secrets, { metadata: { name: "webhook-token" }, stringData: { token } });
  for (const p of planes.filter((p) => p.role !== "management"))
    await mgmt.create(secrets, {
      metadata: { name: `${p.name}-kubeconfig` },
      stringData: { "admin.conf": readFileSync(p.kubeconfig, "utf8") },
    });
  await createAppsSource(mgmt, url, "1h");
  for (const p of planes)
    await Promise.all(
      Array.from({ length: apps }, (_, i) =>
        mgmt.create(KS, {
          apiVersion: "kustomize.toolkit.fluxcd.io/v1",
          kind: "Kustomization",
          metadata: { name: ksName(p.name, i), namespace: NS },
          spec: {
            interval: "1h",
            prune: true,
            path: `./apps/app-${i}`,
            targetNamespace: APPS_NS,
            sourceRef: { kind: "GitRepository", name: "apps" },
            ...(p.role === "management"
              ? {}
              : { kubeConfig: { secretRef: { name: `${p.name}-kubeconfig`, key: "admin.conf" } } }),
          },
        }),
      ),
    );
  await waitFor("the Receiver CRD served", () => mgmt.get(RCV).then(() => true), 60_000, 250, alive);
  await mgmt.create(RCV, {
    apiVersion: "notification.toolkit.fluxcd.io/v1",
    kind: "Receiver",
    metadata: { name: "github", namespace: NS },
    spec: {
      type: "github",
      events: ["push"],
      secretRef: { name: "webhook-token" },
      resources: [{ kind: "GitRepository", name: "apps" }],
    },
  });
  const r = await waitFor(
    "the Receiver Ready",
    async () => {
      const o = await mgmt.get(`${RCV}/github`);
      return isReady(o) && o.status?.webhookPath ? o : undefined;
    },
    60_000,
    250,
    alive,
  );
  return r.status.webhookPath;
}

/** Per plane: its K Kustomizations Ready at `rev` and its K ConfigMaps with data.round = `round`. */
async function planeDone(p, ks, apps, rev, round) {
  const mine = ks.filter((k) => k.metadata.name.startsWith(`${p.name}-app-`));
  if (mine.length !== apps || !mine.every((k) => isReady(k) && k.status?.lastAppliedRevision === rev)) return false;
  const cms = await p.client.get(`/api/v1/namespaces/${APPS_NS}/configmaps`);
  const at = new Set(cms.items.filter((c) => c.data?.round === round).map((c) => c.metadata.name));
  return Array.from({ length: apps }, (_, i) => `app-${i}`).every((n) => at.has(n));
}

/** Seconds from `t0` until each plane is done (polled every 100 ms, the GitRepository at `rev` first): { plane: s }. */
export async function convergeTimes({ mgmt, planes, apps, t0, rev, round, timeoutMs, alive }) {
  const done = {};
  const all = async () => {
    if ((await mgmt.get(`${GR}/apps`)).status?.artifact?.revision !== rev) return false;
    const ks = (await mgmt.get(KS)).items;
    for (const p of planes)
      if (!(p.name in done) && (await planeDone(p, ks, apps, rev, round)))
        done[p.name] = (performance.now() - t0) / 1000;
    return Object.keys(done).length === planes.length;
  };
  await waitFor(`${planes.length * apps} Kustomizations at ${rev}`, all, timeoutMs, 100, alive);
  return done;
}

/** POSTs GitHub's push event for `sha` on main, signed with the Receiver's token (X-Hub-Signature-256). */
export async function githubPush(url, token, sha) {
  const body = JSON.stringify({ ref: "refs/heads/main", after: sha });
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-GitHub-Event": "push",
      "X-GitHub-Delivery": randomBytes(8).toString("hex"),
      "X-Hub-Signature-256": `sha256=${createHmac("sha256", token).update(body).digest("hex")}`,
    },
    body,
  });
  if (res.status !== 200) throw new Error(`the webhook answered ${res.status}: ${await res.text()}`);
}

/** Seconds until `check` holds (polled every `intervalMs`), or Infinity after `timeoutMs`. */
export async function secondsUntil(check, timeoutMs, intervalMs) {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (await check().catch(() => false)) return (performance.now() - t0) / 1000;
    await sleep(intervalMs);
  }
  return Infinity;
}

/** Merge-patches `data[key]` of a ConfigMap as field manager reaction-bench; seconds until it is back. */
export async function editAndTime(client, path, key, timeoutMs, intervalMs = 100) {
  const want = (await client.get(path)).data[key];
  await client.patch(path, "merge", { data: { [key]: "edited by hand" } }, { fieldManager: "reaction-bench" });
  return secondsUntil(async () => (await client.get(path)).data?.[key] === want, timeoutMs, intervalMs);
}

/** Deletes an object; seconds until it exists again (another uid). */
export async function deleteAndTime(client, path, timeoutMs, intervalMs = 100) {
  const before = (await client.get(path)).metadata.uid;
  await client.delete(path);
  return secondsUntil(async () => (await client.get(path)).metadata.uid !== before, timeoutMs, intervalMs);
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const fmt = (s) => (Number.isFinite(s) ? s.toFixed(2) : "timeout");
export const statsRow = (label, xs) =>
  `| ${label} | ${fmt(median(xs))} s | ${fmt(Math.max(...xs))} s | ${xs.map(fmt).join(", ")} |`;
export const TABLE_HEAD = "| plane | median | max | rounds (s) |\n| --- | --- | --- | --- |";
