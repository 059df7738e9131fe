// OCIRepositories end to end in one test namespace: the OCIRepository and Kustomization controllers
// in-process as the manager wires them (scoped to the namespace), a real artifact server on loopback,
// and helpers that read status the way a user would (Ready for the current generation; a requested
// reconcile observed through status.lastHandledReconcileAt). Registries come from oci-registry.ts.
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import type { Condition } from "../../src/api/meta/conditions.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { KUSTOMIZE_GROUP, SOURCE_GROUP } from "../../src/api/kinds.js";
import { kustomizationCrd } from "../../src/api/kustomize/kustomization.js";
import { type OCIRepository, ociRepositoryCrd } from "../../src/api/source/oci-repository.js";
import { createController } from "../../src/controllers/kit/setup.js";
import { kustomizationController } from "../../src/controllers/kustomization/setup.js";
import { ociRepositoryController } from "../../src/controllers/ocirepository/setup.js";
import type { Cluster } from "../../src/kube/cluster.js";
import { EventRecorder } from "../../src/runtime/events.js";
import { createLogger } from "../../src/runtime/logger.js";
import type { ArtifactLimits } from "../../src/sources/artifact/limits.js";
import { startArtifactServer } from "../../src/sources/artifact/server.js";
import { Storage } from "../../src/sources/artifact/storage.js";
import { SourceFetcher } from "../../src/sources/consumer.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { eventually, planeCluster, testNamespace } from "./fleet-context.js";
import { type KustomizationsIn, kustomizationsIn } from "./kustomizations-in.js";

// FLOTILLA_TEST_LOG=1 shows the controllers' log (to stderr) when a test needs explaining.
const log = process.env.FLOTILLA_TEST_LOG
  ? createLogger({ level: "debug" })
  : createLogger({ level: "error", write: () => {} });

export interface OciEnv extends KustomizationsIn {
  mgmt: Cluster;
  storage: Storage;
  createOci(name: string, spec: Record<string, unknown>): Promise<void>;
  patchOci(name: string, spec: Record<string, unknown>): Promise<void>;
  getOci(name: string): Promise<OCIRepository>;
  /** Ready has `status` (and `reason`, if given) for the current generation. */
  waitOci(name: string, status: "True" | "False", reason?: string): Promise<OCIRepository>;
  /** Asks for a reconcile and waits until it was handled; returns the object as it left it. */
  reconcileOci(name: string): Promise<OCIRepository>;
  secret(name: string, data: Record<string, string>, type?: string): Promise<void>;
  /** The tenant's admin kubeconfig copied into the test namespace; returns the Secret's name. */
  copyAdminKubeconfig(tenant: string): Promise<string>;
  events(name: string): Promise<{ type: string; reason: string; message: string }[]>;
  stop(): Promise<void>;
}

export const readyOf = (o: { status?: { conditions?: Condition[] } }) =>
  o.status?.conditions?.find((c) => c.type === "Ready");
export const conditionOf = (o: { status?: { conditions?: Condition[] } }, type: string) =>
  o.status?.conditions?.find((c) => c.type === type);

export async function startOciEnv(o: { prefix: string; artifactLimits?: ArtifactLimits }): Promise<OciEnv> {
  const mgmt = planeCluster("management");
  for (const crd of [ociRepositoryCrd(), kustomizationCrd()])
    await mgmt.apply(crd as unknown as KubeObject, "flotilla-test", { force: true });
  await mgmt.discovery.waitForMapping({ group: SOURCE_GROUP, version: "v1", kind: "OCIRepository" }, 10_000);
  await mgmt.discovery.waitForMapping({ group: KUSTOMIZE_GROUP, version: "v1", kind: "Kustomization" }, 10_000);
  const ns = await testNamespace(mgmt.client, o.prefix);
  const storage = new Storage(makeWorkDir("flotilla-storage-"), "http://127.0.0.1:0");
  const artifacts = await startArtifactServer(storage, "127.0.0.1", 0);
  (storage as { baseUrl: string }).baseUrl = artifacts.url;
  const deps = {
    cluster: mgmt,
    storage,
    events: new EventRecorder(mgmt.client, "source-controller", log),
    sources: new SourceFetcher(mgmt.client, makeWorkDir("flotilla-sources-")),
    flags: { requeueDependencyMs: 1000, artifactLimits: o.artifactLimits },
  };
  const shared = { cluster: mgmt, log, namespace: ns };
  const controllers = [
    createController(ociRepositoryController, deps, shared),
    createController(kustomizationController, deps, shared),
  ];
  for (const c of controllers) await c.start();

  const ociPath = (name = "") => `/apis/${SOURCE_GROUP}/v1/namespaces/${ns}/ocirepositories${name && `/${name}`}`;
  const getOci = (name: string) => mgmt.client.get<OCIRepository>(ociPath(name));
  const ks = kustomizationsIn(mgmt, ns);
  return {
    ...ks,
    mgmt,
    storage,
    getOci,
    async createOci(name, spec) {
      await mgmt.client.create(ociPath(), {
        apiVersion: `${SOURCE_GROUP}/v1`,
        kind: "OCIRepository",
        metadata: { name, namespace: ns },
        spec: { interval: "10m", ...spec },
      });
    },
    async patchOci(name, spec) {
      await mgmt.client.patch(ociPath(name), "merge", { spec });
    },
    async waitOci(name, status, reason) {
      let last: unknown;
      try {
        return await eventually(
          `OCIRepository ${ns}/${name} Ready=${status}${reason ? ` (${reason})` : ""}`,
          async () => {
            const obj = await getOci(name);
            const ready = readyOf(obj);
            last = { generation: obj.metadata.generation, ready };
            return ready?.status === status &&
              ready.observedGeneration === obj.metadata.generation &&
              (!reason || ready.reason === reason)
              ? obj
              : undefined;
          },
        );
      } catch (err) {
        // Say what it was instead.
        throw new Error(`${(err as Error).message}; last seen: ${JSON.stringify(last)}`);
      }
    },
    async reconcileOci(name) {
      const at = new Date().toISOString();
      await mgmt.client.patch(ociPath(name), "merge", { metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } } });
      return eventually(`OCIRepository ${ns}/${name} reconciled at ${at}`, async () => {
        const obj = await getOci(name);
        return obj.status?.lastHandledReconcileAt === at ? obj : undefined;
      });
    },
    async secret(name, data, type = "Opaque") {
      await mgmt.client.create(`/api/v1/namespaces/${ns}/secrets`, {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name, namespace: ns },
        type,
        stringData: data,
      });
    },
    async copyAdminKubeconfig(tenant) {
      const name = `${tenant}-admin-kubeconfig`;
      const s = await mgmt.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/tenants/secrets/${name}`);
      await mgmt.client.create(`/api/v1/namespaces/${ns}/secrets`, {
        metadata: { name },
        data: { "admin.conf": s.data["admin.conf"]! },
      });
      return name;
    },
    async events(name) {
      const list = await mgmt.client.get<{
        items: { type: string; reason: string; message: string; involvedObject: { name: string } }[];
      }>(`/api/v1/namespaces/${ns}/events`);
      return list.items.filter((e) => e.involvedObject.name === name);
    },
    async stop() {
      // Let the Kustomization controller finalize what the tests left (orphaning: the namespace goes anyway).
      const list = await mgmt.client.get<{ items: KubeObject[] }>(
        `/apis/${KUSTOMIZE_GROUP}/v1/namespaces/${ns}/kustomizations`,
      );
      for (const k of list.items) {
        await mgmt.client
          .patch(ks.ksPath(k.metadata.name), "merge", { spec: { deletionPolicy: "Orphan" } })
          .catch(() => {});
        await mgmt.client.delete(ks.ksPath(k.metadata.name)).catch(() => {});
      }
      await eventually(
        "the test's Kustomizations to be finalized",
        async () =>
          (await mgmt.client.get<{ items: unknown[] }>(`/apis/${KUSTOMIZE_GROUP}/v1/namespaces/${ns}/kustomizations`))
            .items.length === 0,
        30_000,
      ).catch(() => {});
      for (const c of controllers) await c.stop();
      await artifacts.close();
    },
  };
}
