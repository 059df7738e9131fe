// The kinds `reconcile`, `delete`, `suspend` and `resume` act on, with what the flux CLI says about each
// (cmd/flux/reconcile_*.go, resume_*.go): the human name in "suspending <human> <name>", the line
// printed on success, and — for --with-source — the source reconciled first.
import { type KindEntry, SERVED_KINDS } from "../../../api/kinds.js";
import type { FluxObject } from "../get/get-kinds.js";

export interface SourceOf {
  kind: OperateKind;
  name: string;
  namespace: string;
  /** A HelmChart is reconciled with its own source first (flux's `force: true`). */
  withItsSource: boolean;
}

export interface OperateKind {
  entry: KindEntry;
  /** "source git", "kustomization": how flux names the kind in progress lines and usage errors. */
  human: string;
  success(o: FluxObject & { status?: { artifact?: { revision?: string } } }): string;
  /** The source `--with-source` reconciles first. */
  sourceOf?(o: FluxObject): SourceOf | undefined;
  /** flux's static kinds (Alert, Provider): no `reconcile` verb, only delete, suspend and resume. */
  noReconcile?: true;
}

const fetched = (o: FluxObject) => `fetched revision ${o.status?.artifact?.revision ?? ""}`;

const GIT: OperateKind = { entry: SERVED_KINDS.GitRepository, human: "source git", success: fetched };
const HELM_REPOSITORY: OperateKind = {
  entry: SERVED_KINDS.HelmRepository,
  human: "source helm",
  // An OCI HelmRepository has no artifact: flux prints its Ready message.
  success: (o) =>
    o.spec?.type === "oci" ? (o.status?.conditions?.find((c) => c.type === "Ready")?.message ?? "") : fetched(o),
};

const OCI: OperateKind = { entry: SERVED_KINDS.OCIRepository, human: "source oci", success: fetched };

const SOURCES: Record<string, OperateKind> = {
  GitRepository: GIT,
  HelmRepository: HELM_REPOSITORY,
  OCIRepository: OCI,
};

const HELM_CHART: OperateKind = {
  entry: SERVED_KINDS.HelmChart,
  human: "source chart",
  success: fetched,
  sourceOf: (o) => {
    const ref = (o.spec as { sourceRef?: { kind: string; name: string } } | undefined)?.sourceRef;
    const kind = ref && SOURCES[ref.kind];
    return kind ? { kind, name: ref.name, namespace: o.metadata.namespace!, withItsSource: false } : undefined;
  },
};

const KUSTOMIZATION: OperateKind = {
  entry: SERVED_KINDS.Kustomization,
  human: "kustomization",
  success: (o) => `applied revision ${o.status?.lastAppliedRevision ?? ""}`,
  sourceOf: (o) => {
    const ref = o.spec?.sourceRef;
    const kind = ref && SOURCES[ref.kind];
    return kind
      ? { kind, name: ref.name, namespace: ref.namespace || o.metadata.namespace!, withItsSource: false }
      : undefined;
  },
};

const HELM_RELEASE: OperateKind = {
  entry: SERVED_KINDS.HelmRelease,
  human: "helmrelease",
  success: (o) => `applied revision ${o.status?.history?.[0]?.chartVersion ?? o.status?.lastAttemptedRevision ?? ""}`,
  // The chart template's HelmChart is `<namespace>-<name>` in the source's namespace; chartRef names one
  // (a HelmChart, reconciled with its own source, or an OCIRepository).
  sourceOf: (o) => {
    const ns = o.metadata.namespace!;
    if (o.spec?.chartRef) {
      const kind = { HelmChart: HELM_CHART, OCIRepository: OCI }[o.spec.chartRef.kind];
      return kind
        ? {
            kind,
            name: o.spec.chartRef.name,
            namespace: o.spec.chartRef.namespace || ns,
            withItsSource: kind === HELM_CHART,
          }
        : undefined;
    }
    const ref = o.spec?.chart?.spec?.sourceRef;
    return { kind: HELM_CHART, name: `${ns}-${o.metadata.name}`, namespace: ref?.namespace || ns, withItsSource: true };
  },
};

// flux's receiverAdapter: the same line whatever the Receiver did.
const RECEIVER: OperateKind = {
  entry: SERVED_KINDS.Receiver,
  human: "receiver",
  success: () => "Receiver reconciliation completed",
};

// flux's alertAdapter and alertProviderAdapter (resume_alert.go, resume_alertprovider.go).
const ALERT: OperateKind = {
  entry: SERVED_KINDS.Alert,
  human: "alert",
  success: () => "Alert reconciliation completed",
  noReconcile: true,
};
const PROVIDER: OperateKind = {
  entry: SERVED_KINDS.Provider,
  human: "alert provider",
  success: () => "Provider reconciliation completed",
  noReconcile: true,
};

// Their sub-commands' names: kinds/registry.ts.
export const OPERATE_KINDS = {
  GIT,
  HELM_REPOSITORY,
  HELM_CHART,
  OCI,
  KUSTOMIZATION,
  HELM_RELEASE,
  RECEIVER,
  ALERT,
  PROVIDER,
};
