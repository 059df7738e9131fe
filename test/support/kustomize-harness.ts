// What the Kustomization scenario tests share: a platform repository over real git smart-HTTP, an
// artifact server, the GitRepository and Kustomization controllers in-process against the
// management plane, a fresh namespace with a GitRepository "platform", and helpers that wait on
// Flux's status the way a user would read it (kustomizations-in.ts).
export type { KustomizationsIn };
import { type Kustomization, kustomizationCrd } from "../../src/api/kustomize/kustomization.js";
import { gitRepositoryCrd } from "../../src/api/source/git-repository.js";
import { ociRepositoryCrd } from "../../src/api/source/oci-repository.js";
import { gitRepositoryController } from "../../src/controllers/gitrepository/setup.js";
import { type ControllerFlags, type ControllerSetup, createController } from "../../src/controllers/kit/setup.js";
import { kustomizationController } from "../../src/controllers/kustomization/setup.js";
import type { Cluster } from "../../src/kube/cluster.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import type { Condition } from "../../src/api/meta/conditions.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { EventRecorder } from "../../src/runtime/events.js";
import { createLogger } from "../../src/runtime/logger.js";
import { startArtifactServer } from "../../src/sources/artifact/server.js";
import { Storage } from "../../src/sources/artifact/storage.js";
import { SourceFetcher } from "../../src/sources/consumer.js";
import { eventually, testNamespace } from "./fleet-context.js";
import { startHarness } from "./harness.js";
import { type KustomizationsIn, kustomizationsIn } from "./kustomizations-in.js";
import { type GitHttpServer, startGitHttpServer } from "./git-http-server.js";
import type { GitRepoHandle } from "./git-repository.js";
import type { CommitFiles } from "../../src/demo/git-repository.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const G = { source: "source.toolkit.fluxcd.io", ks: "kustomize.toolkit.fluxcd.io" };

export const configMap = (name: string, namespace?: string, data: Record<string, string> = { a: "1" }) =>
  JSON.stringify({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, ...(namespace ? { namespace } : {}) },
    data,
  });

const RECENT_LOG_LINES = 400;

export interface KustomizeHarness extends KustomizationsIn {
  mgmt: Cluster;
  repo: GitRepoHandle;
  /** Commits to the platform repository and waits until the GitRepository has that commit. */
  commit(files: CommitFiles, message: string): Promise<void>;
  /** Copies a plane's Kamaji-style admin kubeconfig Secret into the test namespace. */
  copyAdminKubeconfig(tenant: string): Promise<string>;
  /** Where the Kustomization controller unpacks source artifacts (one directory per digest). */
  artifactCacheDir: string;
  /** A GitRepository on branch main of `url` (interval 10m), with more spec fields as given. */
  createGitRepository(ns: string, name: string, url: string, spec?: Record<string, unknown>): Promise<void>;
  /** Requests a reconcile of a GitRepository; returns its Ready condition once that request is handled. */
  reconcileGitRepository(ns: string, name: string): Promise<Condition>;
  /** Another fresh namespace with its own GitRepository "platform" on the same repository (a tenant's). */
  addNamespace(prefix: string): Promise<KustomizationsIn>;
  /** The controllers' last log lines (info and above) that contain `text`, for a failure's message. */
  recentLog(text?: string): string;
  stop(): Promise<void>;
}

export async function startKustomizeHarness(
  options: ControllerFlags & { prefix?: string } = {},
): Promise<KustomizeHarness> {
  const { prefix, ...flags } = options;
  // OCIRepository too: the Kustomization controller watches it as a source.
  const h = await startHarness({
    namespaces: { app: prefix ?? "ks" },
    crds: [gitRepositoryCrd(), ociRepositoryCrd(), kustomizationCrd()] as unknown as KubeObject[],
  });
  const { mgmt } = h;
  const ns = h.ns.app;
  // The controllers' last info lines are kept (recentLog) so a failing test can say what they did; with
  // FLOTILLA_TEST_CONTROLLER_LOG set (=debug: at debug level) they are echoed as well.
  const echo = process.env.FLOTILLA_TEST_CONTROLLER_LOG;
  const recent: string[] = [];
  const log = createLogger({
    level: echo === "debug" ? "debug" : "info",
    write: (line) => {
      if (echo) process.stderr.write(`[controller] ${line}`);
      recent.push(line.trimEnd());
      if (recent.length > RECENT_LOG_LINES) recent.shift();
    },
  });
  const git: GitHttpServer = await startGitHttpServer();
  const repo = await git.createRepo("platform");
  await repo.commit({ "README.md": "platform\n" }, "init");
  const storage = new Storage(makeWorkDir("flotilla-storage-"), "http://127.0.0.1:0");
  const artifacts = await startArtifactServer(storage, "127.0.0.1", 0);
  (storage as { baseUrl: string }).baseUrl = artifacts.url;
  h.onCleanup(() => Promise.all([git.close(), artifacts.close()]));
  const artifactCacheDir = makeWorkDir("flotilla-sources-");
  // The two controllers as the manager sets them up, with Flux's flags as the test file asks.
  const deps = {
    cluster: mgmt,
    storage,
    events: new EventRecorder(mgmt.client, "kustomize-controller", log),
    sources: new SourceFetcher(mgmt.client, artifactCacheDir),
    flags: { requeueDependencyMs: 1000, ...flags },
  };
  const setups: ControllerSetup<typeof deps>[] = [gitRepositoryController, kustomizationController];
  const controllers = setups.map((setup) => createController(setup, deps, { cluster: mgmt, log, concurrency: 4 }));
  for (const c of controllers) await c.start();
  h.onCleanup(async () => {
    for (const c of controllers) await c.stop();
  });
  const gitRepoPath = (namespace: string, name = "") =>
    `/apis/${G.source}/v1/namespaces/${namespace}/gitrepositories${name && `/${name}`}`;
  const createGitRepository = async (namespace: string, name: string, url: string, spec = {}) => {
    await mgmt.client.create(gitRepoPath(namespace), {
      apiVersion: `${G.source}/v1`,
      kind: "GitRepository",
      metadata: { name, namespace },
      spec: { url, interval: "10m", ref: { branch: "main" }, ...spec },
    });
  };
  const createSource = (namespace: string) => createGitRepository(namespace, "platform", repo.url);
  const sourcePath = `/apis/${G.source}/v1/namespaces/${ns}/gitrepositories/platform`;
  await createSource(ns);
  const namespaces = [ns];
  // First at cleanup: let the controller finalize what the tests left, so the namespaces can go.
  h.onCleanup(async () => {
    for (const namespace of namespaces) {
      const { ksPath } = view(namespace);
      const collection = `/apis/${G.ks}/v1/namespaces/${namespace}/kustomizations`;
      const list = await mgmt.client.get<{ items: Kustomization[] }>(collection);
      for (const k of list.items) {
        await mgmt.client
          .patch(ksPath(k.metadata.name), "merge", { spec: { deletionPolicy: "Orphan" } })
          .catch(() => {});
        await mgmt.client.delete(ksPath(k.metadata.name)).catch(() => {});
      }
      await eventually(
        "the test's Kustomizations to be finalized",
        async () => (await mgmt.client.get<{ items: unknown[] }>(collection)).items.length === 0,
        30_000,
      ).catch(() => {});
    }
  });

  const view = (namespace: string) => kustomizationsIn(mgmt, namespace);

  const harness: KustomizeHarness = {
    ...view(ns),
    mgmt,
    repo,
    artifactCacheDir,
    createGitRepository,
    async reconcileGitRepository(namespace, name) {
      const at = new Date().toISOString();
      await mgmt.client.patch(gitRepoPath(namespace, name), "merge", {
        metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } },
      });
      return eventually(`GitRepository ${namespace}/${name} reconciled at ${at}`, async () => {
        const o = await mgmt.client.get<
          KubeObject & { status?: { lastHandledReconcileAt?: string; conditions?: Condition[] } }
        >(gitRepoPath(namespace, name));
        return o.status?.lastHandledReconcileAt === at
          ? o.status.conditions?.find((c) => c.type === "Ready")
          : undefined;
      });
    },
    async addNamespace(prefix) {
      const extra = await testNamespace(mgmt.client, prefix);
      namespaces.push(extra);
      await createSource(extra);
      return view(extra);
    },
    async commit(files, message) {
      await repo.commit(files, message);
      const head = await repo.head();
      await mgmt.client.patch(sourcePath, "merge", {
        metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: new Date().toISOString() } },
      });
      await eventually("the source at the new commit", async () => {
        const gr = await mgmt.client.get<{ status?: { artifact?: { revision: string } } }>(sourcePath);
        return gr.status?.artifact?.revision === `main@sha1:${head}`;
      });
    },
    copyAdminKubeconfig: (tenant) => h.copyKubeconfig(tenant, ns),
    recentLog: (text = "") => recent.filter((l) => l.includes(text)).join("\n"),
    stop: () => h.cleanup(),
  };
  return harness;
}
