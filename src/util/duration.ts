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

/** Go's Duration.String() of whole milliseconds: 600000 → "10m0s", 90000 → "1m30s", 1500 → "1.5s", 250 → "250ms". */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const rest = ms % 60_000;
  const s = `${Math.floor(rest / 1000)}${
    rest % 1000
      ? `.${String(rest % 1000)
          .padStart(3, "0")
          .replace(/0+$/, "")}`
      : ""
  }s`;
  return h ? `${h}h${m}m${s}` : m ? `${m}m${s}` : s;
}
