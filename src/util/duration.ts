// Go duration strings as Flux uses them in specs ("1m", "10m30s", "1.5h", "500ms") in milliseconds.
import { FlotillaError } from "./errors.js";

export class DurationError extends FlotillaError {
  override name = "DurationError";
}
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number {
  const re = /([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (const m of text.matchAll(re)) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    consumed += m[0].length;
  }
  if (!text || consumed !== text.length)
    throw new DurationError(`invalid duration "${text}" (use e.g. 30s, 5m, 1h30m)`);
  return total;
}
