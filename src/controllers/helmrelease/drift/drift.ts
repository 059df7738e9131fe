// Drift of a release's objects on the target cluster: the stored release manifest against the cluster
// by a server-side dry-run, corrected by server-side apply — as field manager "helm", the manager helm
// v4's CLI applies with, so a later `helm upgrade` owns the same fields — not by a helm upgrade.
// `ignore` rules drop their paths from what is compared and applied; objects labelled or annotated
// helm.toolkit.fluxcd.io/driftDetection: disabled are left alone (helm-controller internal/action/diff.go).
import type { DriftIgnoreRule } from "../../../api/helm/helmrelease.js";
import type { KubeObject } from "../../../api/meta/object.js";
import { Cluster } from "../../../kube/cluster.js";
import type { KubeClient } from "../../../kube/client.js";
import { objectId } from "../../../kube/object.js";
import { selectTargets } from "../../../kustomize/patches/target.js";
import type { Resource } from "../../../kustomize/resource.js";
import { ResourceManager } from "../../../ssa/index.js";
import { manifestObjects, type StoredRelease } from "../storage/release.js";

export interface DriftEntry {
  /** "<Kind>/<namespace>/<name>" as Flux prints it. */
  subject: string;
  action: "create" | "update";
  /** Changed JSON paths (for the event message); never values. */
  paths: string[];
}

export interface DriftReport {
  entries: DriftEntry[];
  /** The objects of the entries as the release wants them: what a correction applies. */
  objects: KubeObject[];
}

export interface DriftOptions {
  ignore?: DriftIgnoreRule[];
  /** The namespace of namespaced objects the manifest leaves without one (the release's). */
  defaultNamespace: string;
}

export const DRIFT_OPT_OUT = "helm.toolkit.fluxcd.io/driftDetection";
const HELM_FIELD_MANAGER = "helm";

export const optedOut = (o: KubeObject) =>
  o.metadata.labels?.[DRIFT_OPT_OUT] === "disabled" || o.metadata.annotations?.[DRIFT_OPT_OUT] === "disabled";

/** RFC 6901 pointer → segments. */
const pointer = (p: string) =>
  p
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));

function removePath(obj: Record<string, unknown>, segments: string[]): void {
  let at: unknown = obj;
  for (const s of segments.slice(0, -1)) {
    if (!at || typeof at !== "object") return;
    at = (at as Record<string, unknown>)[s];
  }
  if (!at || typeof at !== "object") return;
  const last = segments.at(-1)!;
  if (Array.isArray(at)) at.splice(Number(last), 1);
  else delete (at as Record<string, unknown>)[last];
}

/** The release's objects as helm applied them (ownership metadata, namespace), ignore rules applied. */
async function desiredObjects(cluster: Cluster, release: StoredRelease, o: DriftOptions): Promise<KubeObject[]> {
  const objects: KubeObject[] = [];
  for (const raw of manifestObjects(release)) {
    const obj = raw as unknown as KubeObject;
    if (!obj.apiVersion || !obj.kind || !obj.metadata?.name) continue;
    obj.metadata.labels = { ...obj.metadata.labels, "app.kubernetes.io/managed-by": "Helm" };
    obj.metadata.annotations = {
      ...obj.metadata.annotations,
      "meta.helm.sh/release-name": release.name,
      "meta.helm.sh/release-namespace": release.namespace,
    };
    if (!obj.metadata.namespace && (await cluster.mapping(obj)).namespaced) obj.metadata.namespace = o.defaultNamespace;
    if (!optedOut(obj)) objects.push(obj);
  }
  for (const rule of o.ignore ?? []) {
    const resources: Resource[] = objects.map((obj, index) => ({
      obj: obj as never,
      origin: { file: "release manifest", index },
      previous: [],
    }));
    const targets = rule.target ? selectTargets(resources, rule.target) : resources;
    for (const r of targets) for (const p of rule.paths) removePath(r.obj as Record<string, unknown>, pointer(p));
  }
  return objects;
}

// No takeover of other managers' fields: a field changed by hand is taken back by the forced apply of the
// value helm set, while a field an ignore rule removed from the manifest stays with whoever changed it.
const manager = (cluster: Cluster) =>
  new ResourceManager(cluster, { fieldManager: HELM_FIELD_MANAGER, takeoverManagers: [] });

/** What differs between the stored release manifest and the cluster. */
export async function detectDrift(client: KubeClient, release: StoredRelease, o: DriftOptions): Promise<DriftReport> {
  const cluster = new Cluster(client);
  const desired = await desiredObjects(cluster, release, o);
  const plan = await manager(cluster).plan(desired);
  const entries: DriftEntry[] = [];
  for (const p of plan) {
    if (p.action === "create") entries.push({ subject: p.subject, action: "create", paths: [] });
    if (p.action === "update")
      entries.push({ subject: p.subject, action: "update", paths: (p.diff ?? []).map((d) => d.path) });
    if (p.action === "fail") throw new Error(`drift detection of ${p.subject} failed: ${p.reason ?? "unknown"}`);
  }
  const drifted = new Set(entries.map((e) => e.subject));
  return { entries, objects: desired.filter((obj) => drifted.has(objectId(obj))) };
}

/** Puts the drifted objects of `report` back (create missing, apply changed); returns what was corrected. */
export async function correctDrift(client: KubeClient, report: DriftReport): Promise<DriftEntry[]> {
  if (!report.entries.length) return [];
  await manager(new Cluster(client)).apply(report.objects);
  return report.entries;
}
