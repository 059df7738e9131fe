// Go's time.ParseDuration and Duration.String, for flags Flux types as durations: `--interval 10m` is
// printed back as `10m0s`, `90s` as `1m30s`, `1.5h` as `1h30m0s`, as metav1.Duration marshals them.
import { UsageError } from "../errors.js";

const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** Nanoseconds of a Go duration string, or undefined when Go would refuse it. */
export function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let negative = false;
  if (s.startsWith("-") || s.startsWith("+")) {
    negative = s.startsWith("-");
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") return undefined;
  let total = 0n;
  const re = /^([0-9]*)(?:\.([0-9]*))?(ns|us|µs|μs|ms|s|m|h)/;
  while (s.length) {
    const m = re.exec(s);
    if (!m || (m[1] === "" && (m[2] ?? "") === "")) return undefined;
    const unit = UNIT_NS[m[3]!]!;
    const frac = m[2] ?? "";
    total += BigInt(m[1] || "0") * unit + (frac ? (BigInt(frac) * unit) / 10n ** BigInt(frac.length) : 0n);
    s = s.slice(m[0].length);
  }
  return negative ? -total : total;
}

function fraction(v: bigint, digits: number): string {
  const text = v.toString().padStart(digits, "0").replace(/0+$/, "");
  return text ? `.${text}` : "";
}

/** Go's Duration.String(). */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return "0s";
  const sign = ns < 0n ? "-" : "";
  const u = ns < 0n ? -ns : ns;
  if (u < 1_000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) return `${sign}${u / 1_000n}${fraction(u % 1_000n, 3)}µs`;
  if (u < 1_000_000_000n) return `${sign}${u / 1_000_000n}${fraction(u % 1_000_000n, 6)}ms`;
  const seconds = `${(u / 1_000_000_000n) % 60n}${fraction(u % 1_000_000_000n, 9)}s`;
  const minutes = (u / 60_000_000_000n) % 60n;
  const hours = u / 3_600_000_000_000n;
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

/** A duration flag as pflag reports a bad one, printed back the way Go prints it. */
export function goDurationFlag(flag: string, value: string): string {
  const ns = parseGoDuration(value);
  if (ns === undefined)
    throw new UsageError(`invalid argument "${value}" for "${flag}" flag: time: invalid duration "${value}"`);
  return formatGoDuration(ns);
}
