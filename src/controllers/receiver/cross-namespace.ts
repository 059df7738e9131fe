// Which namespaces a Receiver's spec.resources may name. The webhook server annotates as the
// controller's identity, and a Receiver's CEL filter decides per object whether it is annotated — with
// the outcome visible to the Receiver's author (its ReconcileRequested event, the status code). A
// Receiver naming another namespace would let a tenant poke every toolkit object there and read their
// metadata one filter at a time. So entries stay in the Receiver's own namespace unless the operator
// allows more with --receiver-allow-cross-namespace; --no-cross-namespace-refs refuses them whatever
// that flag says. Flux allows them unless --no-cross-namespace-refs (decision 0032).
import type { ReceiverResource, ReceiverSpec } from "../../api/notification/receiver.js";
import { ReconcileFailure } from "../kit/failure.js";

export const ACCESS_DENIED = "AccessDenied";

export interface CrossNamespacePolicy {
  allowed: boolean;
  /** The flag that decided it, for the refusal's message. */
  because: string;
}

export function crossNamespacePolicy(flags: {
  noCrossNamespaceRefs?: boolean;
  receiverAllowCrossNamespace?: boolean;
}): CrossNamespacePolicy {
  if (flags.noCrossNamespaceRefs)
    return { allowed: false, because: "the controller runs with --no-cross-namespace-refs" };
  if (flags.receiverAllowCrossNamespace)
    return { allowed: true, because: "the controller runs with --receiver-allow-cross-namespace" };
  return {
    allowed: false,
    because: "the controller allows it only with --receiver-allow-cross-namespace",
  };
}

/** Why this entry may not be asked, or undefined when it may (its own namespace, or allowed). */
export function crossNamespaceRefusal(
  entry: ReceiverResource,
  index: number,
  receiverNamespace: string,
  policy: CrossNamespacePolicy,
): string | undefined {
  if (!entry.namespace || entry.namespace === receiverNamespace || policy.allowed) return undefined;
  return `spec.resources[${index}] names ${entry.kind} "${entry.namespace}/${entry.name}" in another namespace: a Receiver may only ask objects in its own namespace "${receiverNamespace}" to reconcile (${policy.because})`;
}

/** The first entry refused, as a stalled AccessDenied failure (retrying cannot fix a spec). */
export function crossNamespaceFailure(
  spec: ReceiverSpec,
  receiverNamespace: string,
  policy: CrossNamespacePolicy,
): ReconcileFailure | undefined {
  for (const [i, entry] of (spec.resources ?? []).entries()) {
    const refused = crossNamespaceRefusal(entry, i, receiverNamespace, policy);
    if (refused) return new ReconcileFailure(ACCESS_DENIED, refused, { stalled: true });
  }
  return undefined;
}
