// dependsOn across kinds (the shape of Flux's open kustomize-controller#1653 / helm-controller#1480: an entry
// with `apiVersion` and `kind` names any object — a HelmRelease from a Kustomization, a CRD, a Deployment).
// The dependency is read on the dependent's own cluster, through discovery; it is ready when kstatus says
// Current — for Flux kinds Ready=True at the observed generation, as kstatus alone would call a Ready=False
// HelmRelease "Current" — or merely exists with `ready: false`.
// An entry without `kind`, or naming the dependent's own kind, keeps its classic meaning (dependencies.ts).
import type { Cluster } from "../../kube/cluster.js";
import { NoMatchError } from "../../kube/discovery.js";
import type { DependencyReference, KubeObject } from "../../api/meta/object.js";
import { computeHealth } from "../../ssa/index.js";
import { type Condition, READY } from "../../api/meta/conditions.js";
import { ReconcileFailure } from "./failure.js";

/** One spec.dependsOn entry, every field any kind has (the api's type). */
export type DependencyRef = DependencyReference;

const groupOf = (apiVersion: string | undefined) =>
  apiVersion?.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";

/** Whether the entry names another kind than the dependent's (the classic entry names its own). */
export function isOtherKind(dep: DependencyRef, own: { apiVersion?: string; kind?: string }): boolean {
  if (!dep.kind) return false;
  if (dep.kind !== own.kind) return true;
  return dep.apiVersion !== undefined && groupOf(dep.apiVersion) !== groupOf(own.apiVersion);
}

/** `<Kind>/<namespace>/<name>` (or `<Kind>/<name>` cluster-wide) as the dependency is named in messages. */
export const dependencyId = (dep: DependencyRef, ns: string | undefined) =>
  ns ? `${dep.kind}/${ns}/${dep.name}` : `${dep.kind}/${dep.name}`;

/**
 * The object another-kind entry `i` names, read on `cluster`; waits (DependencyNotReady) while its kind is
 * not served or it does not exist. A Secret is never handed to readyExpr: a tenant's expression could read
 * it bit by bit through its own Ready condition.
 */
export async function readOtherKind(
  cluster: Cluster,
  dep: DependencyRef,
  i: number,
  ns: string,
  waitMs: number,
): Promise<{ obj: KubeObject; id: string }> {
  if (!dep.apiVersion)
    throw new ReconcileFailure(
      "InvalidDependency",
      `spec.dependsOn[${i}] names kind ${dep.kind} without apiVersion: set apiVersion (for example helm.toolkit.fluxcd.io/v2)`,
      { stalled: true },
    );
  if (dep.kind === "Secret" && dep.apiVersion === "v1" && dep.readyExpr)
    throw new ReconcileFailure(
      "InvalidDependency",
      `spec.dependsOn[${i}]: readyExpr cannot read a Secret (it would expose its data through this object's status); depend on the Secret's existence instead`,
      { stalled: true },
    );
  let mapping;
  try {
    mapping = await cluster.mapping({ apiVersion: dep.apiVersion, kind: dep.kind! });
  } catch (err) {
    if (!(err instanceof NoMatchError)) throw err;
    throw new ReconcileFailure(
      "DependencyNotReady",
      `dependency '${dependencyId(dep, ns)}' is not ready: kind ${dep.kind} in ${dep.apiVersion} is not served by the cluster`,
      { retryAfterMs: waitMs },
    );
  }
  const id = dependencyId(dep, mapping.namespaced ? ns : undefined);
  const namespace = mapping.namespaced ? ns : undefined;
  const obj = await cluster.get({
    apiVersion: dep.apiVersion,
    kind: dep.kind!,
    metadata: { name: dep.name, namespace },
  });
  if (!obj)
    throw new ReconcileFailure("DependencyNotReady", `dependency '${id}' is not ready: not found`, {
      retryAfterMs: waitMs,
    });
  return { obj, id };
}

/** The groups whose kinds report Ready as Flux does (kstatus alone calls Ready=False "Current"). */
const FLUX_GROUP = /(^|\.)toolkit\.fluxcd\.io$|^fluxcd\.controlplane\.io$|^fleet\.flotilla\.dev$/;

/** Why a Flux-style object is not Ready=True at its generation, or undefined when it is. */
export function fluxNotReady(obj: KubeObject): string | undefined {
  const status = obj.status as { observedGeneration?: number; conditions?: Condition[] } | undefined;
  const ready = status?.conditions?.find((c) => c.type === READY);
  if (status?.observedGeneration !== obj.metadata.generation || !ready)
    return `its generation ${obj.metadata.generation ?? "?"} is not reconciled yet`;
  if (ready.status === "True") return undefined;
  return `Ready=${ready.status} (${ready.reason}): ${ready.message}`;
}

/**
 * Readiness of an another-kind dependency (unless `ready: false`), naming why not: Ready=True at the observed
 * generation for the Flux and fleet kinds, kstatus (ssa/health) for the rest.
 */
export function requireOtherKindReady(dep: DependencyRef, obj: KubeObject, id: string, waitMs: number): void {
  if (dep.ready === false) return;
  if (FLUX_GROUP.test(groupOf(obj.apiVersion))) {
    const why = fluxNotReady(obj);
    if (why)
      throw new ReconcileFailure("DependencyNotReady", `dependency '${id}' is not ready: ${why}`, {
        retryAfterMs: waitMs,
      });
    return;
  }
  const health = computeHealth(obj);
  if (health.status !== "Current")
    throw new ReconcileFailure(
      "DependencyNotReady",
      `dependency '${id}' is not ready: ${health.status}: ${health.message}`,
      {
        retryAfterMs: waitMs,
      },
    );
}
