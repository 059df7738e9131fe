// Shared by the controller benchmarks (bench/kustomizations.bench.mjs, bench/soak.bench.mjs): Flux's
// flux-benchmark app shape, the real controller process, and /proc readings of it.
import { spawn } from "node:child_process";
import { accessSync, constants, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";

/** One small app of Flux's benchmark: ConfigMap, ServiceAccount, Service and a 0-replica Deployment. */
/**
 * Where a bench puts the planes' etcd, artifact storage and the controllers' TMPDIR: tmpfs when there is one. On a
 * disk shared with other fleets' etcd fsyncs, creating files is slow, and Flux's kustomize-controller unpacks the
 * whole artifact for each Kustomization: on disk it ran 7× slower here.
 */
export function tmpfsOrTmpdir() {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

export function appFiles(i, data = {}) {
  const name = `app-${i}`;
  const doc = (o) => `${JSON.stringify(o)}\n`;
  return {
    [`apps/${name}/configmap.yaml`]: doc({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name },
      data: { index: String(i), ...data },
    }),
    [`apps/${name}/serviceaccount.yaml`]: doc({ apiVersion: "v1", kind: "ServiceAccount", metadata: { name } }),
    [`apps/${name}/service.yaml`]: doc({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name },
      spec: { selector: { app: name }, ports: [{ name: "http", port: 80, targetPort: 8080, protocol: "TCP" }] },
    }),
    [`apps/${name}/deployment.yaml`]: doc({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { serviceAccountName: name, containers: [{ name: "app", image: "nginx:1.27" }] },
        },
      },
    }),
  };
}

export const procStatus = (pid, field) => {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  return m ? Number(m[1]) * 1024 : 0;
};
export const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime in clock ticks (100 Hz)
};

/** CPU seconds of the children a process has waited for (cutime + cstime): the sops and git it ran. */
export const childCpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
};

/** Open sockets of a process (its fds that are sockets). */
export function openSockets(pid) {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")) n++;
    } catch {
      // closed between the listing and the read
    }
  }
  return n;
}

export const isReady = (o) =>
  o.status?.observedGeneration === o.metadata.generation &&
  o.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");

export async function until(what, fn, timeoutMs, intervalMs = 1000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fn().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The real `flotilla controller` against a local plane, with the benchmark's client limits (and extra `env`). */
export function startBenchController({
  kubeconfig,
  storage,
  storagePort,
  healthPort,
  concurrent,
  qps,
  burst,
  env = {},
}) {
  return spawn(
    process.execPath,
    [
      "bin/flotilla.js",
      "controller",
      "--kubeconfig",
      kubeconfig,
      "--runtime-namespace",
      "flux-system",
      "--concurrent",
      String(concurrent),
      "--kube-api-qps",
      String(qps),
      "--kube-api-burst",
      String(burst),
      "--storage-path",
      storage,
      "--storage-addr",
      `127.0.0.1:${storagePort}`,
      "--health-addr",
      `127.0.0.1:${healthPort}`,
      "--install-crds",
      "--log-level",
      process.env.FLOTILLA_BENCH_LOG_LEVEL ?? "error",
    ],
    { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } },
  );
}

export const KS = "/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations";
export const GR = "/apis/source.toolkit.fluxcd.io/v1/namespaces/flux-system/gitrepositories";

/** The GitRepository "apps" the benchmark apps come from, once the controller has installed the CRDs; Ready. */
export async function createAppsSource(client, url, interval) {
  await until("the CRDs", () => client.get(KS).then(() => true), 60_000, 250);
  await client.create(GR, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "apps", namespace: "flux-system" },
    spec: { url, interval, ref: { branch: "main" } },
  });
  await until("the GitRepository Ready", async () => isReady(await client.get(`${GR}/apps`)), 60_000, 250);
}

/**
 * One Kustomization per app (`app-<i>` at ./apps/app-<i>, i from `from`), created 50 at a time, with
 * more `spec` fields as given (spec.decryption for the decryption benchmark).
 */
export async function createAppKustomizations(client, n, targetNamespace, { from = 0, spec = {} } = {}) {
  for (let at = 0; at < n; at += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, n - at) }, (_, k) =>
        client.create(KS, {
          apiVersion: "kustomize.toolkit.fluxcd.io/v1",
          kind: "Kustomization",
          metadata: { name: `app-${from + at + k}`, namespace: "flux-system" },
          spec: {
            interval: "60m",
            retryInterval: "5m",
            prune: true,
            path: `./apps/app-${from + at + k}`,
            targetNamespace,
            sourceRef: { kind: "GitRepository", name: "apps" },
            ...spec,
          },
        }),
      ),
    );
}
