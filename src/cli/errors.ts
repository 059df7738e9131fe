// Mistakes on the command line itself (a flag's value, a missing argument). They extend the one error
// root, so main.ts prints them as one `✗` line with exit code 1, never as "unexpected error".
import { FlotillaError } from "../util/errors.js";

export class UsageError extends FlotillaError {
  override name = "UsageError";
}

/** A whole number within [min, max] from a flag, or a UsageError naming the flag. */
export function intFlag(flag: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!/^\s*-?\d+\s*$/.test(value) || n < min || n > max)
    throw new UsageError(
      `${flag} must be a whole number from ${min}${max < 1e15 ? ` to ${max}` : " up"}, got "${value}"`,
    );
  return n;
}

/** A positive number (integer or decimal) from a flag, or a UsageError naming the flag. */
export function positiveFlag(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value) || !(n > 0))
    throw new UsageError(`${flag} must be a positive number, got "${value}"`);
  return n;
}
