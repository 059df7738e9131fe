// The receiver server's typed errors, under flotilla's one root (decision 0017). Each maps to the
// status code Flux's notification-controller answers with (internal/server/receiver_handlers.go):
// a request that does not authenticate is 400, a reconcile request that could not be made is 500.
// Messages name the Secret, header or resource at fault — never a token or a signature's value.
import { FlotillaError } from "../../util/errors.js";

export class ReceiverError extends FlotillaError {
  override name = "ReceiverError";
}

/** The request failed validation (Secret, signature, token header, event filter): 400. */
export class WebhookRejected extends ReceiverError {
  override name = "WebhookRejected";
}

/** A resource could not be asked to reconcile (lookup, filter, annotation, cross-namespace): 500. */
export class ReconcileRequestFailed extends ReceiverError {
  override name = "ReconcileRequestFailed";
}
