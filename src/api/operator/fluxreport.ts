// FluxReport (fluxcd.controlplane.io/v1): the operator's report of a Flux installation — distribution,
// components, per-kind reconciler statistics and the cluster sync — written into spec by the controller
// (the operator's internal/reporter, decision 0043). One per cluster, named flux.
import type { Condition } from "../meta/conditions.js";
import type { KubeObject } from "../meta/object.js";
import { arr, bool, condition, crdFor, int, obj, str } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";
import { INSTANCE_NAME } from "./fluxinstance.js";

export interface ReconcilerStats {
  running: number;
  failing: number;
  suspended: number;
  totalSize?: string;
}

export interface FluxReportSpec {
  distribution: { entitlement: string; status: string; version?: string; managedBy?: string };
  cluster?: { serverVersion: string; platform: string; nodes?: number };
  operator?: { apiVersion: string; version: string; platform: string };
  components?: { name: string; ready: boolean; status: string; image: string }[];
  reconcilers?: { apiVersion: string; kind: string; stats: ReconcilerStats }[];
  sync?: { id: string; path?: string; ready: boolean; status: string; source?: string };
}

export type FluxReport = KubeObject & {
  spec: FluxReportSpec;
  status?: { conditions?: Condition[]; lastHandledReconcileAt?: string };
};

const spec = obj(
  {
    distribution: obj({ entitlement: str(), status: str(), version: str(), managedBy: str() }, [
      "entitlement",
      "status",
    ]),
    cluster: obj({ serverVersion: str(), platform: str(), nodes: int() }, ["platform", "serverVersion"]),
    operator: obj({ apiVersion: str(), version: str(), platform: str() }, ["apiVersion", "platform", "version"]),
    components: arr(
      obj({ name: str(), ready: bool(), status: str(), image: str() }, ["image", "name", "ready", "status"]),
    ),
    reconcilers: arr(
      obj(
        {
          apiVersion: str(),
          kind: str(),
          stats: obj({ running: int(), failing: int(), suspended: int(), totalSize: str() }, [
            "failing",
            "running",
            "suspended",
          ]),
        },
        ["apiVersion", "kind"],
      ),
    ),
    sync: obj({ id: str(), path: str(), ready: bool(), status: str(), source: str() }, ["id", "ready", "status"]),
  },
  ["distribution"],
);

const status = obj({
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  lastHandledReconcileAt: str(),
});

export const fluxReportCrd = () =>
  crdFor(SERVED_KINDS.FluxReport, {
    v1: {
      spec,
      status,
      rules: [[`self.metadata.name == '${INSTANCE_NAME}'`, "the only accepted name for a FluxReport is 'flux'"]],
    },
  });
