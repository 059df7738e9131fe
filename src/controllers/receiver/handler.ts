// One webhook request for a Receiver found by its path (the server answers 404 for a path no Receiver
// has, before reading the body), after its body was read, as notification-controller handles it
// (receiver_handlers.go handlePayload), answering with Flux's status codes and an empty body:
//   503 the Receiver is suspended or not Ready ·
//   400 the request does not validate (Secret, signature, token, event) ·
//   500 a resource could not be asked to reconcile (every entry is still tried) · 200 done.
// flotilla adds one thing Flux does not do: a Normal Event on the Receiver naming what it asked to
// reconcile. Logs name the Receiver, never the path (for a generic Receiver the path is the secret),
// the token or the payload.
import { READY } from "../../api/meta/conditions.js";
import type { Receiver } from "../../api/notification/receiver.js";
import type { Cluster } from "../../kube/cluster.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { Logger } from "../../runtime/logger.js";
import { WebhookRejected } from "./errors.js";
import type { CrossNamespacePolicy } from "./cross-namespace.js";
import type { ReceiverCache } from "../kit/receiver-cache.js";
import { requestReconciliation } from "./request-reconcile.js";
import { type ResourceFilter, resourceFilters } from "./resource-filter.js";
import { readToken, TokenUnavailable } from "./token.js";
import { SUPPORTED_RECEIVER_TYPES, type SupportedReceiverType, type Verified, verifyWebhook } from "./verify.js";

export const RECONCILE_REQUESTED_REASON = "ReconcileRequested";

export interface HandlerOptions {
  cache: ReceiverCache;
  cluster: Cluster;
  events: EventRecorder;
  log: Logger;
  /** Whether entries may name another namespace (cross-namespace.ts: off unless the operator allows it). */
  crossNamespace: CrossNamespacePolicy;
}

export interface HookRequest {
  /** The request URI as sent (path and query), matched whole against status.webhookPath as Flux does. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const isReady = (r: Receiver) => r.status?.conditions?.some((c) => c.type === READY && c.status === "True") ?? false;

const firstHeader = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export async function handleHook(o: HandlerOptions, receiver: Receiver, req: HookRequest): Promise<number> {
  const log = o.log.with({ kind: "Receiver", namespace: receiver.metadata.namespace, name: receiver.metadata.name });
  if (receiver.spec.suspend || !isReady(receiver)) {
    log.error("unable to process request", {
      reason: receiver.spec.suspend ? "receiver is suspended" : "receiver is not ready",
    });
    return 503;
  }
  // The reconciler refuses every other type before it sets Ready; checked again in case of a stale cache.
  const type = receiver.spec.type as SupportedReceiverType;
  if (!SUPPORTED_RECEIVER_TYPES.includes(type)) return 503;

  let verified: Verified;
  try {
    const token = await readToken(o.cluster, receiver).catch((err: unknown) => {
      if (!(err instanceof TokenUnavailable)) throw err;
      // Flux's words (validate()), the Secret named, its data never.
      throw new WebhookRejected(
        err.problem === "no-token"
          ? `invalid "${err.secret}" secret data: required field 'token'`
          : `unable to read secret, error: unable to read secret "${err.secret}": ${err.message}`,
      );
    });
    verified = verifyWebhook(type, req, token, receiver.spec.events);
  } catch (err) {
    log.error("unable to validate payload", { error: (err as Error).message });
    return 400;
  }
  if (verified.event !== undefined)
    log.info(`handling ${type === "github" ? "GitHub" : "GitLab"} event: ${verified.event.slice(0, 64)}`);

  let filters: (ResourceFilter | undefined)[];
  try {
    filters = resourceFilters(receiver.spec, firstHeader(req.headers["content-type"]), verified.payload);
  } catch (err) {
    log.error("unable to create resource filters", { error: (err as Error).message });
    return 500;
  }

  const annotated: string[] = [];
  let failed = false;
  const options = {
    cluster: o.cluster,
    crossNamespace: o.crossNamespace,
    note: (message: string) => log.info(message),
  };
  for (const [i, entry] of receiver.spec.resources.entries()) {
    try {
      annotated.push(...(await requestReconciliation(options, receiver, entry, i, filters[i])));
    } catch (err) {
      failed = true;
      log.error("unable to request reconciliation", {
        resource: `${entry.kind}/${entry.namespace ?? receiver.metadata.namespace}/${entry.name}`,
        error: (err as Error).message,
      });
    }
  }
  if (annotated.length) {
    const what = verified.event !== undefined ? `${type} event '${verified.event.slice(0, 64)}'` : `${type} webhook`;
    await o.events.record(
      receiver,
      "Normal",
      RECONCILE_REQUESTED_REASON,
      `${what}: requested reconciliation of ${annotated.join(", ")}`,
    );
  }
  return failed ? 500 : 200;
}
