// The dashboard's actions — reconcile, suspend, resume, approve a rollout gate — performed with the
// identity of the kubeconfig the dashboard runs with, so RBAC decides: a Forbidden comes back with the
// API's own message. `--read-only` refuses them all before any request. A ResourceSet is suspended the
// operator's way, by the annotation fluxcd.controlplane.io/reconcile: disabled (it has no spec.suspend).
import { REQUESTED_AT_ANNOTATION } from "../api/meta/annotations.js";
import { SERVED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import { ApiError, ForbiddenError, NotFoundError } from "../kube/errors.js";
import { approval, NothingToApprove } from "../fleet/rollout/approve.js";
import type { FleetStatus } from "../api/fleet/fleet-kustomization.js";
import type { Rollout } from "../api/fleet/rollout.js";
import type { KubeObject } from "../api/meta/object.js";
import { FlotillaError } from "../util/errors.js";
import { OPERATOR_ANNOTATIONS } from "../api/operator/resourceset.js";
import { CORE_KINDS, type FleetCache } from "../fleet/status/fleet-cache.js";

/** The kinds with an app page (and actions); the Cluster has actions too. */
export const APP_KINDS = [
  "Kustomization",
  "HelmRelease",
  "FleetKustomization",
  "FleetHelmRelease",
  "ResourceSet",
] as const;
export type AppKind = (typeof APP_KINDS)[number];
const ACTION_KINDS: readonly string[] = [...CORE_KINDS, "ResourceSet"];
type ActionKind = AppKind | "Cluster";

export const ACTIONS = ["reconcile", "suspend", "resume", "approve"] as const;
export type Action = (typeof ACTIONS)[number];

/** An action the dashboard will not perform, with the HTTP status to answer. */
export class ActionRefused extends FlotillaError {
  override name = "ActionRefused";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ActionRequest {
  action: Action;
  kind: ActionKind;
  namespace: string;
  name: string;
  stage?: string;
  /** approve: the revision the page showed waiting; another one waiting now is refused (409). */
  revision?: string;
}

export function parseAction(body: unknown): ActionRequest {
  const b = (body ?? {}) as Record<string, unknown>;
  if (!ACTIONS.includes(b.action as Action))
    throw new ActionRefused(400, `unknown action ${String(b.action)}: one of ${ACTIONS.join(", ")}`);
  if (!ACTION_KINDS.includes(b.kind as string)) throw new ActionRefused(400, `unknown kind ${String(b.kind)}`);
  if (typeof b.namespace !== "string" || typeof b.name !== "string" || !b.namespace || !b.name)
    throw new ActionRefused(400, "namespace and name are required");
  if (b.kind === "Cluster" && b.action !== "reconcile")
    throw new ActionRefused(400, `a Cluster cannot be ${String(b.action)}ed`);
  if (b.action === "approve" && b.kind !== "FleetKustomization" && b.kind !== "FleetHelmRelease")
    throw new ActionRefused(400, "only a FleetKustomization or FleetHelmRelease has a rollout gate to approve");
  return {
    action: b.action as Action,
    kind: b.kind as ActionKind,
    namespace: b.namespace,
    name: b.name,
    ...(typeof b.stage === "string" && b.stage ? { stage: b.stage } : {}),
    ...(typeof b.revision === "string" && b.revision ? { revision: b.revision } : {}),
  };
}

export async function perform(cache: FleetCache, readOnly: boolean, req: ActionRequest): Promise<string> {
  if (readOnly) throw new ActionRefused(403, "this dashboard is read-only (--read-only): actions are turned off");
  const path = pathOf(SERVED_KINDS[req.kind], req.namespace, req.name);
  const id = `${req.kind} ${req.namespace}/${req.name}`;
  let patch: object;
  let done: string;
  if (req.action === "reconcile") {
    patch = { metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: new Date().toISOString() } } };
    done = `${id} annotated for reconciliation`;
  } else if ((req.action === "suspend" || req.action === "resume") && req.kind === "ResourceSet") {
    const value = req.action === "suspend" ? "disabled" : null;
    patch = { metadata: { annotations: { [OPERATOR_ANNOTATIONS.reconcile]: value } } };
    done = `${id} ${req.action === "suspend" ? "suspended" : "resumed"}`;
  } else if (req.action === "suspend" || req.action === "resume") {
    patch = { spec: { suspend: req.action === "suspend" } };
    done = `${id} ${req.action === "suspend" ? "suspended" : "resumed"}`;
  } else {
    const obj = cache.get<KubeObject & { spec: { rollout?: Rollout }; status?: FleetStatus }>(
      req.kind,
      req.namespace,
      req.name,
    );
    if (!obj) throw new ActionRefused(404, `${id} not found`);
    try {
      const a = approval(obj, req.stage);
      if (req.revision && a.revision !== req.revision)
        throw new ActionRefused(
          409,
          `stage ${a.stage} of ${id} now waits at ${a.revision}, not ${req.revision} as shown: look again, then approve`,
        );
      patch = a.patch;
      done = `stage ${a.stage} of ${id} approved at ${a.revision}`;
    } catch (err) {
      if (err instanceof NothingToApprove) throw new ActionRefused(409, err.message);
      throw err;
    }
  }
  try {
    await cache.client.patch(path, "merge", patch);
  } catch (err) {
    // The API's own words: a Forbidden names the user and the verb RBAC refused.
    if (err instanceof ForbiddenError) throw new ActionRefused(403, err.message);
    if (err instanceof NotFoundError) throw new ActionRefused(404, `${id} not found`);
    if (err instanceof ApiError) throw new ActionRefused(502, err.message);
    throw err;
  }
  return done;
}
