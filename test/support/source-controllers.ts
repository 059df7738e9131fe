// Source controllers for an e2e test file: the GitRepository (and optionally HelmChart) controllers
// in-process, as the manager wires them, scoped to one test namespace, with a real artifact server
// on loopback. Objects are created through the real apiserver.
import { type GitRepository, gitRepositoryCrd } from "../../src/api/source/git-repository.js";
import { SOURCE_GROUP } from "../../src/api/kinds.js";
import { helmChartCrd, helmRepositoryCrd } from "../../src/api/source/helm.js";
import { gitRepositoryController } from "../../src/controllers/gitrepository/setup.js";
import { helmChartController } from "../../src/controllers/helmchart/setup.js";
import { helmRepositoryController } from "../../src/controllers/helmrepository/setup.js";
import { createController } from "../../src/controllers/kit/setup.js";
import type { Cluster } from "../../src/kube/cluster.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import type { Condition } from "../../src/api/meta/conditions.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { EventRecorder } from "../../src/runtime/events.js";
import { createLogger } from "../../src/runtime/logger.js";
import { startArtifactServer } from "../../src/sources/artifact/server.js";
import { Storage } from "../../src/sources/artifact/storage.js";
import { eventually } from "./fleet-context.js";
import { serveCrds } from "./harness.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const log = createLogger({ level: "error", write: () => {} });

export interface SourceControllers {
  storage: Storage;
  artifactsUrl: string;
  create(plural: string, name: string, spec: Record<string, unknown>, kindName?: string): Promise<void>;
  get<T = GitRepository>(plural: string, name: string): Promise<T>;
  /** Waits until Ready has the given status; returns the object. */
  waitReady<T extends { status?: { conditions?: Condition[] } }>(
    plural: string,
    name: string,
    status?: "True" | "False",
  ): Promise<T>;
  requestReconcile(plural: string, name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startSourceControllers(
  cluster: Cluster,
  ns: string,
  opts: { helm?: boolean; requeueDependencyMs?: number } = {},
): Promise<SourceControllers> {
  const crds = [gitRepositoryCrd(), ...(opts.helm ? [helmRepositoryCrd(), helmChartCrd()] : [])];
  await serveCrds(cluster, crds as unknown as KubeObject[]);
  const storage = new Storage(makeWorkDir("flotilla-storage-"), "http://127.0.0.1:0");
  const artifacts = await startArtifactServer(storage, "127.0.0.1", 0);
  (storage as { baseUrl: string }).baseUrl = artifacts.url;
  const deps = {
    cluster,
    storage,
    events: new EventRecorder(cluster.client, "source-controller", log),
    flags: { requeueDependencyMs: opts.requeueDependencyMs },
  };
  const setups = [gitRepositoryController, ...(opts.helm ? [helmChartController, helmRepositoryController] : [])];
  const controllers = setups.map((setup) =>
    createController(setup, deps, {
      cluster,
      log,
      namespace: ns,
      concurrency: setup === gitRepositoryController ? 2 : undefined,
    }),
  );
  for (const c of controllers) await c.start();

  const base = (plural: string) => `/apis/${SOURCE_GROUP}/v1/namespaces/${ns}/${plural}`;
  const get = <T>(plural: string, name: string) => cluster.client.get<T>(`${base(plural)}/${name}`);
  const kinds: Record<string, string> = {
    gitrepositories: "GitRepository",
    helmcharts: "HelmChart",
    helmrepositories: "HelmRepository",
  };
  return {
    storage,
    artifactsUrl: artifacts.url,
    get,
    create: async (plural, name, spec, kindName) => {
      await cluster.client.create(base(plural), {
        apiVersion: `${SOURCE_GROUP}/v1`,
        kind: kindName ?? kinds[plural],
        metadata: { name, namespace: ns },
        spec: { interval: "10m", ...spec },
      });
    },
    waitReady: <T>(plural: string, name: string, status = "True") =>
      eventually<T>(`${plural}/${name} Ready=${status}`, async () => {
        const o = await get<{ status?: { conditions?: Condition[] } }>(plural, name);
        return o.status?.conditions?.find((c) => c.type === "Ready")?.status === status ? (o as T) : undefined;
      }),
    requestReconcile: async (plural, name) => {
      const at = new Date().toISOString();
      await cluster.client.patch(`${base(plural)}/${name}`, "merge", {
        metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } },
      });
      return at;
    },
    stop: async () => {
      for (const c of controllers) await c.stop();
      await artifacts.close();
    },
  };
}

/** Files in a tar.gz artifact served at `url`, path → content. */
export async function artifactFiles(url: string): Promise<Record<string, string>> {
  const { readTarball } = await import("../../src/sources/artifact/tarball.js");
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  const out: Record<string, string> = {};
  for (const e of readTarball(Buffer.from(await res.arrayBuffer())))
    if (e.type === "file") out[e.path] = e.content.toString("utf8");
  return out;
}
