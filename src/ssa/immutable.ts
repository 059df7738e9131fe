// Is this API error one that only re-creating the object can get past? Like Flux (and kubectl):
// any Conflict or Invalid error, or a message saying a field is immutable (CEL rules, webhooks).
import { ApiError, ConflictError, InvalidError } from "../kube/errors.js";

const IMMUTABLE = [/is\simmutable/, /immutable\sfield/];

export function isImmutableError(err: unknown): boolean {
  if (err instanceof ConflictError || err instanceof InvalidError) return true;
  return err instanceof ApiError && IMMUTABLE.some((re) => re.test(err.message));
}
