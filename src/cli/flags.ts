// Flag values parsed the way Flux's Go controllers parse them, with mistakes reported as a UsageError
// naming the flag (one `✗` line), never as NaN or a silently different default.
import { Option } from "commander";
import { parseDuration } from "../util/duration.js";
import { UsageError } from "./errors.js";

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

const SIZE_UNITS: Record<string, number> = {
  "": 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
};

/** A size in bytes written as a Kubernetes quantity ("1Gi", "500M", "1048576"), or a UsageError naming the flag. */
export function sizeFlag(flag: string, value: string): number {
  const m = /^\s*(\d+)(Ki|Mi|Gi|Ti|k|M|G|T)?\s*$/.exec(value);
  const n = m ? Number(m[1]) * SIZE_UNITS[m[2] ?? ""]! : NaN;
  if (!m || !(n > 0) || !Number.isSafeInteger(n))
    throw new UsageError(`${flag} must be a positive size in bytes, e.g. 1073741824, 512Mi or 1Gi; got "${value}"`);
  return n;
}

/** A duration flag ("30s", "1m30s"), or a UsageError naming the flag. */
export function durationFlag(flag: string, value: string): number {
  try {
    return parseDuration(value);
  } catch (err) {
    throw new UsageError(`${flag}: ${(err as Error).message}`);
  }
}

/**
 * A boolean flag as Go's pflag takes it: `--flag`, `--flag=true`, `--flag=false`. Flux's manifests write
 * `--no-cross-namespace-refs=true`, so a `--no-` prefix here is part of the name (commander would
 * otherwise read it as a negation and refuse the value).
 */
export function goBoolOption(flag: string, description: string, defaultValue: boolean): Option {
  const option = new Option(`${flag} [bool]`, description);
  option.negate = false;
  return option
    .default(defaultValue)
    .preset("true")
    .argParser((value: string) => {
      if (!/^(true|false)$/i.test(value)) throw new UsageError(`${flag} takes true or false, got "${value}"`);
      return value.toLowerCase() === "true";
    });
}
