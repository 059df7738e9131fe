// A plan snapshot: what an offline plan (CI without cluster credentials) compares with. Taken online:
// the management cluster's Flux and fleet objects, the ConfigMaps their substitutions and values read,
// the chart each HelmRelease installs now, and — per app — the objects it last applied as they are on
// its cluster, read as its controller's identity. Never a Secret value: Secret data is kept as digests,
// a Secret read by substitutions or values by name only, and kubectl's last-applied annotation dropped.
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import { chartRefOf, loadChart } from "../../controllers/helmrelease/chart-source.js";
import { releaseName, targetNamespace } from "../../controllers/helmrelease/release-name.js";
import { manifestObjects, ReleaseStorage } from "../../controllers/helmrelease/storage/release.js";
import { targetCluster } from "../../controllers/kit/target-cluster.js";
import type { Cluster } from "../../kube/cluster.js";
import { SourceFetcher } from "../../sources/consumer.js";
import { parseInventoryId } from "../../ssa/index.js";
import { makeWorkDir } from "../../util/work-dir.js";
import { PlanInputError } from "./errors.js";
import { keyOf, type ManagementState } from "./management-state.js";

export const SNAPSHOT_VERSION = 1;

export interface Snapshot {
  flotillaPlanSnapshot: typeof SNAPSHOT_VERSION;
  takenAt: string;
  management: ManagementState;
  /** ConfigMaps read by postBuild.substituteFrom and valuesFrom, `namespace/name` → data. */
  configMaps: Record<string, Record<string, string>>;
  /** Per app (`Kind/namespace/name`): the objects it last applied, as on its cluster, or why they could not be read. */
  applied: Record<string, { objects: KubeObject[]; error?: string }>;
  /** The chart package each HelmChart serves now (`namespace/name` → base64 .tgz). */
  charts: Record<string, string>;
}

export const secretDigest = (value: string) => `sha256:${createHash("sha256").update(value).digest("hex")}`;

/** What a snapshot keeps of a live object: its content, not its bookkeeping, and no Secret value. */
export function scrubbed(o: KubeObject): KubeObject {
  const {
    managedFields,
    resourceVersion: _r,
    uid: _u,
    creationTimestamp: _c,
    generation: _g,
    ...kept
  } = o.metadata as KubeObject["metadata"] & Record<string, unknown>;
  // The server-side-apply owners' field sets stay: offline, they tell a field dropped from the manifests.
  const applied = (managedFields ?? []).filter((m) => m.operation === "Apply" && !m.subresource);
  const metadata = { ...kept, ...(applied.length ? { managedFields: applied } : {}) };
  const annotations = { ...(metadata.annotations ?? {}) };
  delete annotations["kubectl.kubernetes.io/last-applied-configuration"];
  const { status: _s, ...rest } = o as KubeObject & { status?: unknown; data?: Record<string, string> };
  const out = { ...rest, metadata: { ...metadata, annotations } } as KubeObject & { data?: Record<string, string> };
  if (o.apiVersion === "v1" && o.kind === "Secret" && out.data)
    out.data = Object.fromEntries(
      Object.entries(out.data).map(([k, v]) => [k, secretDigest(Buffer.from(v, "base64").toString("utf8"))]),
    );
  return out;
}

async function appliedByKustomization(target: Cluster, ks: Kustomization): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const e of ks.status?.inventory?.entries ?? []) {
    const m = parseInventoryId(e.id);
    const apiVersion = m.group ? `${m.group}/${e.v}` : e.v;
    const live = await target.get({
      apiVersion,
      kind: m.kind,
      metadata: { name: m.name, ...(m.namespace ? { namespace: m.namespace } : {}) },
    });
    if (live) out.push(scrubbed({ ...live, apiVersion, kind: m.kind }));
  }
  return out;
}

async function appliedByRelease(target: Cluster, hr: HelmRelease): Promise<KubeObject[]> {
  const last = await new ReleaseStorage(target.client, hr.spec.storageNamespace ?? targetNamespace(hr)).last(
    releaseName(hr),
  );
  const out: KubeObject[] = [];
  for (const o of (last ? manifestObjects(last) : []) as unknown as KubeObject[]) {
    const namespaced = await target.mapping(o).then(
      (m) => m.namespaced,
      () => true,
    );
    const ref = {
      ...o,
      metadata: { ...o.metadata, ...(namespaced ? { namespace: o.metadata.namespace ?? targetNamespace(hr) } : {}) },
    };
    const live = await target.get(ref);
    if (live) out.push(scrubbed({ ...live, apiVersion: o.apiVersion, kind: o.kind }));
  }
  return out;
}

export async function takeSnapshot(
  management: Cluster,
  state: ManagementState,
  defaultServiceAccount: string | undefined,
): Promise<Snapshot> {
  const snapshot: Snapshot = {
    flotillaPlanSnapshot: SNAPSHOT_VERSION,
    takenAt: new Date().toISOString(),
    management: state,
    configMaps: {},
    applied: {},
    charts: {},
  };
  const readConfigMap = async (ns: string, name: string) => {
    const cm = await management.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: ns } });
    if (cm) snapshot.configMaps[`${ns}/${name}`] = (cm as { data?: Record<string, string> }).data ?? {};
  };
  const work = makeWorkDir("flotilla-snapshot-");
  const sources = new SourceFetcher(management.client, work);
  const apps: (Kustomization | HelmRelease)[] = [...state.kustomizations, ...state.helmReleases];
  for (const app of apps) {
    const ns = app.metadata.namespace!;
    const key = keyOf(app.kind, ns, app.metadata.name);
    // What such an app applied may hold a value read from a Secret anywhere (a ConfigMap, an env value):
    // it is not written down, and offline it could not be rendered anyway.
    const fromSecret = [
      ...((app as Kustomization).spec.postBuild?.substituteFrom ?? []),
      ...((app as HelmRelease).spec.valuesFrom ?? []),
    ].find((r) => r.kind === "Secret");
    if (fromSecret) {
      snapshot.applied[key] = {
        objects: [],
        error: `reads values from Secret ${ns}/${fromSecret.name}: not written to a snapshot; plan this app online`,
      };
      continue;
    }
    try {
      const target = await targetCluster(management, app, defaultServiceAccount);
      if (app.kind === "Kustomization") {
        const ks = app as Kustomization;
        for (const from of ks.spec.postBuild?.substituteFrom ?? [])
          if (from.kind === "ConfigMap") await readConfigMap(ns, from.name);
        snapshot.applied[key] = { objects: await appliedByKustomization(target, ks) };
      } else {
        const hr = app as HelmRelease;
        for (const from of hr.spec.valuesFrom ?? []) if (from.kind === "ConfigMap") await readConfigMap(ns, from.name);
        snapshot.applied[key] = { objects: await appliedByRelease(target, hr) };
        const ref = chartRefOf(hr);
        const chartKey = `${ref.namespace}/${ref.name}`;
        if (!snapshot.charts[chartKey])
          snapshot.charts[chartKey] = readFileSync((await loadChart(sources, hr, 0)).path).toString("base64");
      }
    } catch (err) {
      snapshot.applied[key] = { objects: snapshot.applied[key]?.objects ?? [], error: (err as Error).message };
    }
  }
  rmSync(work, { recursive: true, force: true });
  return snapshot;
}

export function readSnapshot(text: string, file: string): Snapshot {
  let s: Snapshot;
  try {
    s = JSON.parse(text) as Snapshot;
  } catch (err) {
    throw new PlanInputError(
      `--snapshot ${file}: not a snapshot (${(err as Error).message}); write one with \`flotilla plan --snapshot ${file}\``,
    );
  }
  if (s?.flotillaPlanSnapshot !== SNAPSHOT_VERSION)
    throw new PlanInputError(
      `--snapshot ${file}: not a flotilla plan snapshot of version ${SNAPSHOT_VERSION}; write one with \`flotilla plan --snapshot ${file}\``,
    );
  return s;
}
