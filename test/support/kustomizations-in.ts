// Kustomization helpers bound to one namespace of the management plane: create, read, and wait on
// Flux's status the way a user would read it (Ready for the current generation; a requested reconcile
// observed through status.lastHandledReconcileAt).
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import type { Condition } from "../../src/api/meta/conditions.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import type { Cluster } from "../../src/kube/cluster.js";
import { eventually } from "./fleet-context.js";

const G = { ks: "kustomize.toolkit.fluxcd.io" };

/** Kustomization helpers bound to one namespace. */
export interface KustomizationsIn {
  ns: string;
  createKs(name: string, spec: Record<string, unknown>): Promise<void>;
  getKs(name: string): Promise<Kustomization>;
  ksPath(name: string): string;
  waitReady(name: string, timeoutMs?: number): Promise<Kustomization>;
  /** Not Ready for the current generation (an earlier failure does not count). */
  waitNotReady(name: string, reason?: string, timeoutMs?: number): Promise<Condition>;
  reconcileNow(name: string): Promise<void>;
}

const readyOf = (k: Kustomization) => k.status?.conditions?.find((c) => c.type === "Ready");

export function kustomizationsIn(mgmt: Cluster, namespace: string): KustomizationsIn {
  const ksPath = (name: string) => `/apis/${G.ks}/v1/namespaces/${namespace}/kustomizations/${name}`;
  const getKs = (name: string) => mgmt.client.get<Kustomization>(ksPath(name));
  return {
    ns: namespace,
    ksPath,
    getKs,
    async createKs(name, spec) {
      await mgmt.client.create(`/apis/${G.ks}/v1/namespaces/${namespace}/kustomizations`, {
        apiVersion: `${G.ks}/v1`,
        kind: "Kustomization",
        metadata: { name, namespace },
        spec: { interval: "10m", prune: true, sourceRef: { kind: "GitRepository", name: "platform" }, ...spec },
      });
    },
    waitReady: (name, timeoutMs = 60_000) =>
      eventually(
        `Kustomization ${namespace}/${name} Ready`,
        async () => {
          const k = await getKs(name);
          return readyOf(k)?.status === "True" && k.status?.observedGeneration === k.metadata.generation
            ? k
            : undefined;
        },
        timeoutMs,
      ),
    waitNotReady: (name, reason, timeoutMs = 60_000) =>
      eventually(
        `Kustomization ${namespace}/${name} not Ready${reason ? ` (${reason})` : ""}`,
        async () => {
          const k = await getKs(name);
          const c = readyOf(k);
          return c?.status === "False" &&
            c.observedGeneration === k.metadata.generation &&
            (!reason || c.reason === reason)
            ? c
            : undefined;
        },
        timeoutMs,
      ),
    async reconcileNow(name) {
      const at = new Date().toISOString();
      await mgmt.client.patch(ksPath(name), "merge", {
        metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } },
      });
      await eventually(
        "the requested reconcile",
        async () => (await getKs(name)).status?.lastHandledReconcileAt === at,
      );
    },
  };
}
