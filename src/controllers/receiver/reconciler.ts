// Receiver reconciler (notification-controller's internal/controller/receiver_controller.go): refuse
// what flotilla does not verify, check the CEL filters and the spec, refuse entries naming another
// namespace unless allowed (cross-namespace.ts: Stalled AccessDenied), read the token, and publish the
// webhook path — status.webhookPath and Ready "Receiver initialized for path: /hook/<digest>". A
// missing Secret or `token` key is Ready=False (TokenNotFound) naming the Secret, the path cleared so
// no request is taken, retried with backoff; a bad filter or spec stalls until the spec changes.
// Every success is a Normal event "Reconciliation finished, next run in <interval>", as Flux records.
import { SERVED_KINDS } from "../../api/kinds.js";
import { RECONCILING, REASONS } from "../../api/meta/conditions.js";
import type { Receiver, ReceiverSpec } from "../../api/notification/receiver.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { setCondition } from "../../runtime/conditions.js";
import type { ReconcileContext, Request, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import { formatDuration, parseDuration } from "../../util/duration.js";
import { ReconcileFailure } from "../kit/failure.js";
import { ObjectReconciler } from "../kit/object-reconciler.js";
import { ReconciledObjects } from "../kit/objects.js";
import { unsupportedField } from "../kit/unsupported.js";
import { type CrossNamespacePolicy, crossNamespaceFailure, crossNamespacePolicy } from "./cross-namespace.js";
import { invalidFilter } from "./resource-filter.js";
import { readToken, TokenUnavailable } from "./token.js";
import { RECEIVER_UNSUPPORTED } from "./unsupported-fields.js";
import { webhookPath } from "./webhook-path.js";

export const TOKEN_NOT_FOUND = "TokenNotFound";
export const INVALID_CEL_EXPRESSION = "InvalidCELExpression";
export const VALIDATION_FAILED = "ValidationFailed";
const DEFAULT_INTERVAL = "10m";
const TERMINAL = "Reconciliation failed terminally due to configuration error";

/** Flux's validateOIDCSpec: the cross-field rules the v1 CRD also enforces (the beta versions do not). */
export function invalidSpec(spec: ReceiverSpec): string | undefined {
  const oidc = spec.type === "generic-oidc";
  if (!oidc && spec.oidcProviders?.length) return "oidcProviders can only be set when type is generic-oidc";
  if (!oidc && !spec.secretRef) return "secretRef is required when type is not generic-oidc";
  return undefined;
}

/** The first reason the spec cannot be served, as a stalled failure; undefined when it can. */
export function refusal(
  spec: ReceiverSpec,
  namespace = "",
  crossNamespace: CrossNamespacePolicy = crossNamespacePolicy({}),
): ReconcileFailure | undefined {
  const unsupported = unsupportedField(spec, RECEIVER_UNSUPPORTED);
  if (unsupported) return unsupported;
  const cel = invalidFilter(spec);
  if (cel) return new ReconcileFailure(INVALID_CEL_EXPRESSION, `${TERMINAL}: ${cel}`, { stalled: true });
  const invalid = invalidSpec(spec);
  if (invalid) return new ReconcileFailure(VALIDATION_FAILED, `${TERMINAL}: ${invalid}`, { stalled: true });
  return crossNamespaceFailure(spec, namespace, crossNamespace);
}

export class ReceiverReconciler extends ObjectReconciler<Receiver> {
  constructor(
    private readonly cluster: Cluster,
    events: EventRecorder,
    private readonly crossNamespace: CrossNamespacePolicy,
  ) {
    super(new ReconciledObjects(cluster), events);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = pathOf(SERVED_KINDS.Receiver, req.namespace, req.name);
    const found = await this.objects.read(path, ctx.cached);
    if (!found) return;
    if (found.metadata.deletionTimestamp) return this.objects.removeFinalizer(found, path);
    const receiver = await this.objects.addFinalizer(found, path);
    if (receiver.spec.suspend) return this.finisher.suspended(receiver, path, ctx);

    const intervalMs = parseDuration(receiver.spec.interval ?? DEFAULT_INTERVAL);
    const timing = { intervalMs };
    const conditions = receiver.status?.conditions ?? [];
    const refused = refusal(receiver.spec, receiver.metadata.namespace!, this.crossNamespace);
    if (refused) return this.finisher.finish(receiver, path, ctx, { outcome: refused, conditions, timing });

    const generation = receiver.metadata.generation;
    const reconciling = setCondition(conditions, {
      type: RECONCILING,
      status: "True",
      reason: REASONS.progressing,
      message: "Reconciliation in progress",
      observedGeneration: generation,
    });
    let token: string;
    try {
      token = await readToken(this.cluster, receiver);
    } catch (err) {
      if (!(err instanceof TokenUnavailable)) throw err;
      const message =
        err.problem === "no-token"
          ? `invalid '${err.secret}' secret data: required fields 'token'`
          : `unable to read token from secret '${err.secret}' error: ${err.message}`;
      const outcome = new ReconcileFailure(TOKEN_NOT_FOUND, message);
      // No path while there is no token: the server stops answering for this Receiver (Flux clears it too).
      const status = { webhookPath: null };
      return this.finisher.finish(receiver, path, ctx, { outcome, conditions: reconciling, status, timing });
    }

    const hook = webhookPath(token, receiver.metadata.name, receiver.metadata.namespace!);
    const message = `Receiver initialized for path: ${hook}`;
    // Logged without the path: for a generic Receiver the path is the secret (Flux logs it; we don't).
    if (receiver.status?.webhookPath !== hook) ctx.log.info("Receiver initialized");
    const event = {
      reason: REASONS.succeeded,
      message: `Reconciliation finished, next run in ${formatDuration(intervalMs)}`,
    };
    return this.finisher.finish(receiver, path, ctx, {
      outcome: { reason: REASONS.succeeded, message, event },
      conditions,
      status: { webhookPath: hook },
      timing,
    });
  }
}
