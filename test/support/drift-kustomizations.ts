// The Kustomization drift-watch e2e scenario: the real controller on its own shard with a Git source
// of a ConfigMap and a Deployment per directory, Kustomizations (interval 1h) on the management plane
// or a tenant plane, and a tear-down that lets the controller prune before it stops.
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import type { ControllerProcess } from "./controller-process.js";
import { eventually, planeCluster } from "./fleet-context.js";
import type { GitHttpServer } from "./git-http-server.js";
import { copyKubeconfig, type Harness, startHarness } from "./harness.js";

const mgmt = planeCluster("management");
const KS = "kustomize.toolkit.fluxcd.io";
const GIT_REPOSITORY = { group: "source.toolkit.fluxcd.io", version: "v1", kind: "GitRepository" };
const KUSTOMIZATION = { group: KS, version: "v1", kind: "Kustomization" };
const SHARD = "flotilla.dev/shard";
export const ksPath = (ns: string, name = "") => `/apis/${KS}/v1/namespaces/${ns}/kustomizations${name && `/${name}`}`;
export const cmPath = (ns: string) => `/api/v1/namespaces/${ns}/configmaps/settings`;
export const deployPath = (ns: string) => `/apis/apps/v1/namespaces/${ns}/deployments/web`;

/** A ConfigMap "settings" (greeting: hello) and a Deployment "web" in `ns`, under `dir` (JSON is YAML). */
export const appFiles = (dir: string, ns: string) => ({
  [`${dir}/settings.yaml`]: JSON.stringify({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "settings", namespace: ns },
    data: { greeting: "hello" },
  }),
  [`${dir}/web.yaml`]: JSON.stringify({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace: ns },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "web:1" }] } },
    },
  }),
});

const harnesses = new WeakMap<ControllerProcess, Harness<"app">>();

/** A controller on the shard `ns`, with a GitRepository "platform" of `files` in `ns`. */
export async function startDriftScenario(
  git: GitHttpServer,
  ns: string,
  files: Record<string, string>,
  extraArgs: string[] = [],
): Promise<ControllerProcess> {
  // It installs the CRDs itself (--install-crds): the harness waits for them to be served.
  const h = await startHarness({
    namespaces: { app: { existing: ns } },
    controller: { storagePrefix: "drift", extraArgs, serves: [GIT_REPOSITORY, KUSTOMIZATION] },
  });
  harnesses.set(h.controller, h);
  await h.controller.healthUrl();
  const repo = await git.createRepo(`drift-${ns}`);
  await repo.commit(files, "apps");
  await mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "platform", namespace: ns, labels: { [SHARD]: ns } },
    spec: { url: repo.url, interval: "1h", ref: { branch: "main" } },
  });
  return h.controller;
}

/** A copy of a tenant plane's admin kubeconfig in `ns` (key "value"); its name. */
export const tenantKubeconfig = (ns: string, tenant: string): Promise<string> =>
  copyKubeconfig(mgmt, tenant, ns, { name: `${tenant}-kubeconfig`, key: "value" });

/** A Kustomization (interval 1h) in the controller's shard, once Ready. */
export async function createReadyKs(ns: string, name: string, spec: Record<string, unknown>): Promise<Kustomization> {
  await mgmt.client.create(ksPath(ns), {
    apiVersion: `${KS}/v1`,
    kind: "Kustomization",
    metadata: { name, namespace: ns, labels: { [SHARD]: ns } },
    spec: { interval: "1h", prune: true, sourceRef: { kind: "GitRepository", name: "platform" }, ...spec },
  });
  return eventually(`Kustomization ${ns}/${name} Ready`, async () => {
    const k = await mgmt.client.get<Kustomization>(ksPath(ns, name));
    const ready = k.status?.conditions?.find((c) => c.type === "Ready");
    return ready?.status === "True" && k.status?.observedGeneration === k.metadata.generation ? k : undefined;
  });
}

/** Deletes the test's Kustomizations (pruning what they applied) while the controller runs, then stops it. */
export async function tearDown(controller: ControllerProcess, ns: string): Promise<void> {
  const list = await mgmt.client.get<{ items: Kustomization[] }>(ksPath(ns));
  for (const k of list.items) await mgmt.client.delete(ksPath(ns, k.metadata.name)).catch(() => {});
  await eventually(
    "the Kustomizations finalized",
    async () => (await mgmt.client.get<{ items: unknown[] }>(ksPath(ns))).items.length === 0,
    30_000,
  ).catch(() => {});
  await harnesses.get(controller)!.cleanup(); // the controller stopped (SIGTERM), its exit awaited
}
