// The offline plan: no cluster access. Sources not replaced by --source, Secret values and anything
// the clusters would decide (defaults, admission, RBAC) are unknown: an app that needs them is an
// error naming what is missing; the rest is compared with the snapshot's objects field by field.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import { chartRefOf } from "../../controllers/helmrelease/chart-source.js";
import { composeValuesFrom } from "../../controllers/helmrelease/values/compose.js";
import { KUSTOMIZATION_FIELD_MANAGER, prunes } from "../../controllers/kustomization/render-apply.js";
import { fieldDiff, isProvablyUnchanged, isSubset, type PlanEntry } from "../../ssa/index.js";
import type { AppOutcome, PlanBackend } from "./backend.js";
import { keyOf } from "./management-state.js";
import { subjectOf } from "./online-backend.js";
import { scrubbed, type Snapshot } from "./snapshot.js";

/** Cluster-scoped kinds an offline render may hold (online, discovery says). */
const CLUSTER_SCOPED = new Set([
  "Namespace",
  "ClusterRole",
  "ClusterRoleBinding",
  "CustomResourceDefinition",
  "PersistentVolume",
  "StorageClass",
  "PriorityClass",
  "ValidatingWebhookConfiguration",
  "MutatingWebhookConfiguration",
  "APIService",
  "IngressClass",
  "RuntimeClass",
  "CSIDriver",
  "Node",
  "Cluster",
]);

const idOf = (o: KubeObject) =>
  `${o.apiVersion.split("/").slice(0, -1).join("/")}/${o.kind}/${o.metadata.namespace ?? ""}/${o.metadata.name}`;
const subject = (o: KubeObject) =>
  o.metadata.namespace ? `${o.kind}/${o.metadata.namespace}/${o.metadata.name}` : `${o.kind}/${o.metadata.name}`;

/** A Secret's stringData folded into data, as the API server stores it (scrubbed() then digests it). */
function comparable(o: KubeObject): KubeObject {
  if (o.apiVersion !== "v1" || o.kind !== "Secret") return o;
  const s = o as KubeObject & { data?: Record<string, string>; stringData?: Record<string, string> };
  if (!s.stringData) return o;
  const { stringData, ...rest } = s;
  const folded = Object.fromEntries(Object.entries(stringData).map(([k, v]) => [k, Buffer.from(v).toString("base64")]));
  return { ...rest, data: { ...(s.data ?? {}), ...folded } } as KubeObject;
}

/** `live` reduced to the fields `shape` has, element by element in lists. */
function within(live: unknown, shape: unknown): unknown {
  if (Array.isArray(shape))
    return Array.isArray(live) ? live.slice(0, shape.length).map((l, i) => within(l, shape[i])) : live;
  if (!live || !shape || typeof live !== "object" || typeof shape !== "object" || Array.isArray(live)) return live;
  const l = live as Record<string, unknown>;
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, within(l[k], v)]));
}

/** An apply drops null fields (a chart's `{{ .Values.unset }}`): so does the comparison. */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!v || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== null)
      .map(([k, x]) => [k, withoutNulls(x)]),
  );
}

function entry(o: KubeObject, action: PlanEntry["action"], more: Partial<PlanEntry> = {}): PlanEntry {
  const parts = o.apiVersion.split("/");
  return {
    subject: subject(o),
    group: parts.length > 1 ? parts[0]! : "",
    version: parts.at(-1)!,
    kind: o.kind,
    namespace: o.metadata.namespace ?? "",
    name: o.metadata.name,
    action,
    ...more,
  };
}

/**
 * Each desired object against the snapshot's: created when absent, unchanged when every value it sets is there
 * and — when the snapshot knows the fields `manager` applied — none of those was dropped from the manifests
 * (an apply removes it), otherwise the changed fields.
 */
export function compareWithSnapshot(desired: KubeObject[], applied: KubeObject[], manager?: string): PlanEntry[] {
  const live = new Map(applied.map((o) => [idOf(o), o]));
  return desired.map((d) => {
    const {
      status: _s,
      metadata,
      ...body
    } = withoutNulls(scrubbed(comparable(d))) as KubeObject & {
      status?: unknown;
    };
    const { managedFields: _m, ...meta } = metadata;
    const view = { ...body, metadata: meta } as KubeObject;
    const have = live.get(idOf(d));
    if (!have) return entry(d, "create");
    const secret = d.apiVersion === "v1" && d.kind === "Secret";
    if (!isSubset(view, have)) {
      const diff = fieldDiff(within(have, view), view, (path) => secret && path[0] === "data");
      return entry(d, "update", { diff });
    }
    const owned = (have.metadata.managedFields ?? []).filter((m) => m.manager === manager);
    const known = manager && owned.length === 1 && owned[0]!.apiVersion === view.apiVersion;
    if (known && !isProvablyUnchanged(view, have, manager))
      return entry(d, "update", {
        diff: [],
        reason: "a field applied before is no longer in the manifests: the apply removes it",
      });
    return entry(d, "unchanged");
  });
}

export function offlineBackend(snapshot: Snapshot, work: string): PlanBackend {
  const appliedOf = (kind: string, ns: string, name: string) => {
    const a = snapshot.applied[keyOf(kind, ns, name)];
    if (!a) return []; // an app the snapshot does not know yet: all its objects are new
    if (a.error) throw new Error(`the snapshot could not read what it applied: ${a.error}`);
    return a.objects;
  };
  const configMap = (ns: string, name: string) => snapshot.configMaps[`${ns}/${name}`];
  let charts = 0;
  return {
    mode: "offline",
    async variables(ks: Kustomization) {
      const vars: Record<string, string> = {};
      for (const from of ks.spec.postBuild?.substituteFrom ?? []) {
        if (from.kind === "Secret")
          throw new Error(
            `postBuild.substituteFrom Secret/${from.name}: Secret values are never written to a snapshot; plan this app online`,
          );
        const data = configMap(ks.metadata.namespace!, from.name);
        if (!data && !from.optional)
          throw new Error(`postBuild.substituteFrom ConfigMap/${from.name} is not in the snapshot`);
        Object.assign(vars, data ?? {});
      }
      return { ...vars, ...ks.spec.postBuild?.substitute };
    },
    artifactDir: async (kind, ns, name) => {
      throw new Error(
        `${kind}/${ns}/${name}: an offline plan has no artifacts; replace it with --source ${kind}/${ns}/${name}=<dir>`,
      );
    },
    async chart(hr) {
      const ref = chartRefOf(hr);
      const data = snapshot.charts[`${ref.namespace}/${ref.name}`];
      if (!data)
        throw new Error(
          `the chart of ${hr.spec.chartRef?.kind ?? "HelmChart"} ${ref.namespace}/${ref.name} is not in the snapshot`,
        );
      const file = join(work, `chart-${++charts}.tgz`);
      writeFileSync(file, Buffer.from(data, "base64"));
      return file;
    },
    pullChart: async (repo, chart, version) => {
      throw new Error(
        `${chart}@${version} is not in the snapshot (the HelmChart holds another version): an offline plan fetches nothing from HelmRepository ${repo.metadata.namespace}/${repo.metadata.name}`,
      );
    },
    async values(hr) {
      const composed = await composeValuesFrom(hr, async (ref) => {
        if (ref.kind === "Secret")
          throw new Error(
            `valuesFrom Secret/${ref.name}: Secret values are never written to a snapshot; plan this HelmRelease online`,
          );
        const data = configMap(hr.metadata.namespace!, ref.name);
        return data ? { data } : null;
      });
      return composed.values;
    },
    namespaced: async (_hr, o) => !CLUSTER_SCOPED.has(o.kind),
    async diffKustomization(ks, objects): Promise<AppOutcome> {
      const entries = compareWithSnapshot(
        objects,
        appliedOf("Kustomization", ks.metadata.namespace!, ks.metadata.name),
        KUSTOMIZATION_FIELD_MANAGER,
      );
      const keep = new Set(objects.map((o) => subject(o)));
      const deleted = prunes(ks)
        ? (ks.status?.inventory?.entries ?? []).map((e) => subjectOf(e.id)).filter((s) => !keep.has(s))
        : [];
      return { entries, deleted };
    },
    async diffHelmRelease(hr, objects): Promise<AppOutcome> {
      const applied = appliedOf("HelmRelease", hr.metadata.namespace!, hr.metadata.name);
      const keep = new Set(objects.map((o) => subject(o)));
      return {
        entries: compareWithSnapshot(objects, applied),
        deleted: applied.map(subject).filter((s) => !keep.has(s)),
      };
    },
  };
}
