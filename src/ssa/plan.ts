// Planning one object's apply without writing anything: read the live object, decide whether it is
// skipped, server-side dry-run it, and work out created / configured / unchanged, a forced
// re-creation, or the Override field takeover. Failures are returned, not thrown, so that a whole
// set can be checked before anything is written.
import type { Cluster } from "../kube/cluster.js";
import { NoMatchError } from "../kube/discovery.js";
import { ApiError, ForbiddenError, KubeError } from "../kube/errors.js";
import { gvkOf, objectId, parseApiVersion } from "../kube/object.js";
import type { KubeObject } from "../api/meta/object.js";
import type { Action } from "./changeset.js";
import { hasDrifted } from "./drift.js";
import type { ObjectFailure } from "./errors.js";
import { type JsonPatchOp, type ManagerMatch, takeoverPatch } from "./field-managers.js";
import { isImmutableError } from "./immutable.js";
import { ANNOTATIONS, forceEnabled, reconcileDisabled, ssaPolicy } from "./metadata.js";
import type { Redactor } from "./redact.js";
import { isProvablyUnchanged } from "./unchanged.js";

export interface PlanContext {
  cluster: Cluster;
  fieldManager: string;
  force: boolean;
  takeoverManagers: ManagerMatch[];
  redactor: Redactor;
  /** Group/kinds defined by CRDs in the same set (their objects wait for the CRD). */
  crdKindsInSet: Set<string>;
  /** Namespaces created by the same set that do not exist yet (their objects wait for them). */
  newNamespaces: Set<string>;
  /** Live objects prefetched by LIST (null: known not to exist); others are read with GET. */
  liveCache: Map<string, KubeObject | null>;
  /** Objects the previous apply did not record: dry-run before any GET (see ResourceManagerOptions). */
  presumedNew?: (o: KubeObject) => boolean;
  /** false: kustomize-controller's ssa/reconcile annotations skip nothing (the Flux Operator's applies). */
  kustomizeAnnotations?: boolean;
}

export const liveKey = (o: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }) =>
  `${groupKind(o.apiVersion, o.kind)}/${o.metadata.namespace ?? ""}/${o.metadata.name}`;

export interface Plan {
  desired: KubeObject;
  live?: KubeObject;
  action: Action;
  /** Cannot be dry-run until an earlier stage created its namespace or CRD. */
  deferred?: boolean;
  /** Immutable change with force allowed: delete, wait, create. */
  recreate?: boolean;
  takeover?: JsonPatchOp[];
  /** What the server's dry-run says the object would become (when one was needed). */
  dryRun?: KubeObject;
  /** Why a skipped object is left alone. */
  skipped?: string;
  failure?: ObjectFailure;
}

/** Why the resource manager leaves an object alone (Flux's annotations, on the desired or live object), if it does. */
export function skipReason(desired: KubeObject, live: KubeObject | undefined): string | undefined {
  if (reconcileDisabled(desired)) return `${ANNOTATIONS.reconcile}: disabled`;
  if (ssaPolicy(desired) === "Ignore") return `${ANNOTATIONS.ssa}: Ignore`;
  if (reconcileDisabled(live)) return `${ANNOTATIONS.reconcile}: disabled on the live object`;
  if (ssaPolicy(live) === "Ignore") return `${ANNOTATIONS.ssa}: Ignore on the live object`;
  if (live && ssaPolicy(desired) === "IfNotPresent") return `${ANNOTATIONS.ssa}: IfNotPresent, and the object exists`;
  return undefined;
}

export const groupKind = (apiVersion: string, kind: string) => `${parseApiVersion(apiVersion).group}/${kind}`;

function failureOf(desired: KubeObject, err: unknown, redactor: Redactor): ObjectFailure {
  const subject = objectId(desired);
  if (err instanceof ApiError) {
    const message = redactor.redact(err.status.message ?? err.message);
    return { subject, reason: err.reason, message };
  }
  const message =
    err instanceof KubeError ? err.message.replace(`${err.cluster}: `, "") : String((err as Error)?.message ?? err);
  return { subject, message: redactor.redact(message) };
}

export async function planObject(ctx: PlanContext, desired: KubeObject, allowDefer: boolean): Promise<Plan> {
  const { cluster } = ctx;
  const subject = objectId(desired);
  let mapping;
  try {
    mapping = await cluster.mapping(desired);
  } catch (err) {
    const definedBySet =
      err instanceof NoMatchError && ctx.crdKindsInSet.has(groupKind(desired.apiVersion, desired.kind));
    if (definedBySet && allowDefer) return { desired, action: "created", deferred: true };
    try {
      if (!definedBySet) throw err;
      // Its CRD was applied in an earlier stage: wait for the apiserver to serve the kind.
      mapping = await cluster.discovery.waitForMapping(gvkOf(desired), 10_000);
    } catch (final) {
      return { desired, action: "unknown", failure: failureOf(desired, final, ctx.redactor) };
    }
  }
  if (!mapping.namespaced) delete desired.metadata.namespace;
  else if (!desired.metadata.namespace) {
    return { desired, action: "unknown", failure: { subject, message: "namespace not specified" } };
  }
  if (allowDefer && mapping.namespaced && ctx.newNamespaces.has(desired.metadata.namespace!)) {
    return { desired, action: "created", deferred: true };
  }

  const policy = ssaPolicy(desired);
  if (
    (ctx.kustomizeAnnotations === false || skipReason(desired, undefined) === undefined) &&
    ctx.presumedNew?.(desired) &&
    !ctx.liveCache.has(liveKey(desired))
  ) {
    // One request when it really is new; if it exists after all, take the full path below.
    const dryRun = await cluster.apply(desired, ctx.fieldManager, { force: true, dryRun: true }).catch(() => undefined);
    if (dryRun && !dryRun.metadata.resourceVersion) return { desired, action: "created" };
  }

  let live: KubeObject | undefined;
  const cached = ctx.liveCache.get(liveKey(desired));
  if (cached !== undefined) live = cached ?? undefined;
  else {
    try {
      live = await cluster.get(desired);
    } catch (err) {
      // A tenant may be allowed to apply but not to read: let the dry-run decide.
      if (!(err instanceof ForbiddenError))
        return { desired, action: "unknown", failure: failureOf(desired, err, ctx.redactor) };
    }
  }

  const skipped = ctx.kustomizeAnnotations === false ? undefined : skipReason(desired, live);
  if (skipped) return { desired, live, action: "skipped", skipped };

  const takeover = live && policy !== "Merge" ? takeoverPatch(live, ctx.fieldManager, ctx.takeoverManagers) : [];
  if (live && takeover.length === 0 && isProvablyUnchanged(desired, live, ctx.fieldManager)) {
    return { desired, live, action: "unchanged" };
  }

  let dryRun: KubeObject;
  try {
    dryRun = await cluster.apply(desired, ctx.fieldManager, { force: true, dryRun: true });
  } catch (err) {
    if (live && isImmutableError(err) && (ctx.force || forceEnabled(desired) || forceEnabled(live))) {
      return { desired, live, action: "created", recreate: true };
    }
    return { desired, live, action: "unknown", failure: failureOf(desired, err, ctx.redactor) };
  }
  if (!dryRun.metadata.resourceVersion) return { desired, live, action: "created" };
  const changed = takeover.length > 0 || hasDrifted(live, dryRun);
  return { desired, live, action: changed ? "configured" : "unchanged", takeover, dryRun };
}
