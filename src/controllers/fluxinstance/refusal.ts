// What the FluxInstance reconciler refuses before doing anything: one instance per cluster, named flux
// (the CRD refuses others too), in the namespace the controller runs in (the operator's cache silently
// ignores one elsewhere; flotilla says so), and a Bucket sync (flotilla does not serve Bucket).
import { type FluxInstance, INSTANCE_NAME } from "../../api/operator/fluxinstance.js";
import { ReconcileFailure } from "../kit/failure.js";
import { UNSUPPORTED_FIELD } from "../kit/unsupported.js";

export function refusal(fi: FluxInstance, home: string | undefined): ReconcileFailure | undefined {
  if (fi.metadata.name !== INSTANCE_NAME)
    return new ReconcileFailure("InvalidName", "the only accepted name for a FluxInstance is 'flux'", {
      stalled: true,
    });
  if (home && fi.metadata.namespace !== home)
    return new ReconcileFailure(
      "InvalidNamespace",
      `FluxInstance ${fi.metadata.namespace}/${fi.metadata.name} is not reconciled: one FluxInstance per cluster, in the namespace the distribution runs in (flotilla's --runtime-namespace, ${home}); move it to ${home}`,
      { stalled: true },
    );
  if (fi.spec.sync?.kind === "Bucket")
    return new ReconcileFailure(
      UNSUPPORTED_FIELD,
      "spec.sync.kind Bucket is not supported by flotilla: flotilla does not serve Bucket; publish the repository to Git (GitRepository) or an OCI registry (OCIRepository)",
      { stalled: true },
    );
  return undefined;
}
