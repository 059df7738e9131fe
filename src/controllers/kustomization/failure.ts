// A reconcile that ends not Ready: the Flux reason that goes into the Ready condition, and whether
// retrying cannot help until the object changes (Stalled).
import { FlotillaError } from "../../util/errors.js";
export class ReconcileFailure extends FlotillaError {
  constructor(
    readonly reason: string,
    message: string,
    readonly stalled = false,
  ) {
    super(message);
    this.name = "ReconcileFailure";
  }
}

/** The kubeconfig Secret of a remote cluster is gone: during deletion that means the cluster is gone too. */
export class KubeconfigSecretNotFound extends ReconcileFailure {
  constructor(readonly secret: string) {
    super("ReconciliationFailed", `failed to get kubeconfig secret '${secret}': not found`);
    this.name = "KubeconfigSecretNotFound";
  }
}
