// The Receiver fields of Flux's v1 API that flotilla does not implement (kit/unsupported.ts): every
// receiver type but generic, generic-hmac, github and gitlab. Such a Receiver is Stalled naming its
// type and the supported ones — it never gets a webhook path, so no request is taken for it.
// resourceFilter and resources[].filter are implemented (CEL, resource-filter.ts).
import type { ReceiverSpec } from "../../api/notification/receiver.js";
import type { UnsupportedField } from "../kit/unsupported.js";
import { SUPPORTED_RECEIVER_TYPES } from "./verify.js";

const supported = SUPPORTED_RECEIVER_TYPES as readonly string[];

export const RECEIVER_UNSUPPORTED: UnsupportedField<ReceiverSpec>[] = [
  {
    field: "spec.type (bitbucket, harbor, dockerhub, quay, gcr, nexus, acr, cdevents, generic-oidc)",
    find: (s) => (supported.includes(s.type) ? undefined : `spec.type '${s.type}'`),
    instead: `the receiver types flotilla verifies are ${supported.join(", ")} (generic-hmac takes an X-Signature HMAC of the body from any sender)`,
  },
];
