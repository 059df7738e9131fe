// What status says about a release, in helm-controller's words: the history snapshots (from Helm's
// storage on the target), the inventory of the release manifest, and the messages of its conditions.
import type { HelmRelease, ReleaseSnapshot } from "../../api/helm/helmrelease.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { Inventory } from "../../api/meta/inventory.js";
import { manifestObjects, observationDigest, type StoredRelease } from "./storage/release.js";
import { valuesDigest } from "./values/compose.js";

/** `<namespace>/<name>.v<version>` as helm-controller names a release in messages. */
export const releaseId = (r: { namespace: string; name: string; version: number }) =>
  `${r.namespace}/${r.name}.v${r.version}`;

export const chartId = (r: StoredRelease) => `${r.chart.metadata.name}@${r.chart.metadata.version}`;

/** A v2 snapshot of a stored release (helm-controller's release.ObservedToSnapshot). */
export function snapshotOf(r: StoredRelease, ociDigest?: string): ReleaseSnapshot {
  const tests = (r.hooks ?? []).filter((h) => h.events?.includes("test") && h.last_run?.started_at);
  return {
    apiVersion: "v2",
    digest: observationDigest(r, ociDigest),
    name: r.name,
    namespace: r.namespace,
    version: r.version,
    status: r.info.status,
    chartName: r.chart.metadata.name,
    chartVersion: r.chart.metadata.version,
    ...(r.chart.metadata.appVersion ? { appVersion: r.chart.metadata.appVersion } : {}),
    configDigest: valuesDigest(r.config ?? {}),
    firstDeployed: r.info.first_deployed ?? "",
    lastDeployed: r.info.last_deployed ?? "",
    ...(r.info.deleted ? { deleted: r.info.deleted } : {}),
    ...(ociDigest ? { ociDigest } : {}),
    ...(tests.length
      ? {
          testHooks: Object.fromEntries(
            tests.map((h) => [
              h.name,
              {
                lastStarted: h.last_run?.started_at,
                lastCompleted: h.last_run?.completed_at,
                phase: h.last_run?.phase,
              },
            ]),
          ),
        }
      : {}),
  };
}

/**
 * status.history, newest first: the stored revisions down to (and including) the previous successful
 * one, at most maxHistory (0 = unlimited), as helm-controller truncates it.
 */
export function historyOf(hr: HelmRelease, stored: StoredRelease[]): ReleaseSnapshot[] {
  const newestFirst = [...stored].sort((a, b) => b.version - a.version);
  const out: ReleaseSnapshot[] = [];
  for (const r of newestFirst) {
    out.push(snapshotOf(r, ociDigestOf(hr, r)));
    const ok = r.info.status === "deployed" || r.info.status === "superseded";
    if (out.length > 1 && ok) break;
  }
  const max = hr.spec.maxHistory ?? 5;
  return max > 0 ? out.slice(0, max) : out;
}

/**
 * The OCI artifact digest a release was made from: what the previous status recorded for that revision,
 * else the digest being released now when the release's chart version carries it (`<version>+<12 hex>`,
 * as an install or upgrade from an OCIRepository writes it; helm-controller's mutateOCIDigest). A rollback
 * to an older chart records none, as helm-controller's does.
 */
export function ociDigestOf(hr: HelmRelease, r: StoredRelease): string | undefined {
  const before = hr.status?.history?.find(
    (h) => h.name === r.name && h.namespace === r.namespace && h.version === r.version,
  );
  if (before) return before.ociDigest;
  const now = hr.status?.lastAttemptedRevisionDigest;
  const hex = now && /^sha256:([a-f0-9]{12})/.exec(now)?.[1];
  return hex && r.chart.metadata.version.endsWith(`+${hex}`) ? now : undefined;
}

/** The release manifest's objects in Flux's inventory format (hooks excluded). */
export function inventoryOf(r: StoredRelease, clusterScoped: (apiVersion: string, kind: string) => boolean): Inventory {
  const entries = manifestObjects(r).map((o) => {
    const apiVersion = String(o.apiVersion ?? "");
    const group = apiVersion.includes("/") ? apiVersion.split("/")[0] : "";
    const kind = String(o.kind ?? "");
    const meta = (o.metadata ?? {}) as { name?: string; namespace?: string };
    const ns = clusterScoped(apiVersion, kind) ? "" : (meta.namespace ?? r.namespace);
    return { id: `${ns}_${meta.name}_${group}_${kind}`, v: apiVersion.split("/").pop()! };
  });
  entries.sort((a, b) => a.id.localeCompare(b.id));
  return { entries };
}

/** Kinds helm charts commonly hold that are cluster-scoped: the fallback when discovery can't say. */
const CLUSTER_SCOPED = new Set([
  "Namespace",
  "ClusterRole",
  "ClusterRoleBinding",
  "CustomResourceDefinition",
  "MutatingWebhookConfiguration",
  "ValidatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
  "PriorityClass",
  "StorageClass",
  "PersistentVolume",
  "APIService",
  "IngressClass",
  "RuntimeClass",
  "CSIDriver",
]);
export const isClusterScopedKind = (kind: string) => CLUSTER_SCOPED.has(kind);

export const succeededMessage = (action: "install" | "upgrade", r: StoredRelease) =>
  `Helm ${action} succeeded for release ${releaseId(r)} with chart ${chartId(r)}`;

/**
 * Ready of a release in sync: as the last test, else the last release action, left it; without either
 * (status lost, a release adopted) the install or upgrade that made `last`.
 */
export function settledReady(conditions: Condition[], last: StoredRelease): { reason: string; message: string } {
  const tested = conditions.find((c) => c.type === "TestSuccess" && c.status === "True");
  const released = conditions.find((c) => c.type === "Released" && c.status === "True");
  const action = last.version > 1 ? "upgrade" : "install";
  return (
    tested ??
    released ?? {
      reason: last.version > 1 ? "UpgradeSucceeded" : "InstallSucceeded",
      message: succeededMessage(action, last),
    }
  );
}
