// The longest one object may keep an external process (git, helm) or a fetch running: the controller's
// --max-object-timeout (10m by default). A spec.timeout above it is capped, not refused: the object is
// still reconciled, and the cap is named in its message when it is what stopped the work (decision 0030).
// One value per process, as the helm concurrency is: the controller sets it once from its flags.
import { formatDuration, parseDuration } from "./duration.js";

export const DEFAULT_MAX_OBJECT_TIMEOUT_MS = 10 * 60_000;

let maxMs = DEFAULT_MAX_OBJECT_TIMEOUT_MS;

export function setMaxObjectTimeout(ms: number): void {
  if (!(ms > 0)) throw new RangeError(`max object timeout must be positive, got ${ms}`);
  maxMs = ms;
}

export function maxObjectTimeoutMs(): number {
  return maxMs;
}

export interface ObjectTimeout {
  ms: number;
  /** Go duration text of `ms` (e.g. for helm's --timeout). */
  text: string;
  /** Set when the cap applied: "spec.timeout 10h0m0s capped to 10m0s by --max-object-timeout". */
  capped?: string;
}

/** `given` (a Go duration, `fallback` when unset) capped by --max-object-timeout. */
export function objectTimeout(given: string | undefined, fallback: string, field = "spec.timeout"): ObjectTimeout {
  const ms = parseDuration(given ?? fallback);
  if (ms <= maxMs) return { ms, text: given ?? fallback };
  const text = formatDuration(maxMs);
  return { ms: maxMs, text, capped: `${field} ${given ?? fallback} capped to ${text} by --max-object-timeout` };
}
