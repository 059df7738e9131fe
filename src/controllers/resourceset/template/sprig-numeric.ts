// slim-sprig v3.0.0's number functions (numeric.go), with Go's semantics: toInt64 of an unparsable
// string is 0, sums are int64, the *f functions and round are float64.
import { FuncError, type GoFunc, fn } from "./functions.js";
import { type GoValue, Num, float, formatValue, int, int64 } from "./values.js";

const n = (v: GoValue | undefined) => (v as Num).v;

export function toInt64(v: GoValue): number {
  if (typeof v === "string") return /^[+-]?\d+$/.test(v) && Math.abs(Number(v)) < 2 ** 63 ? Number(v) : 0;
  if (v instanceof Num) return Math.trunc(v.v);
  if (typeof v === "boolean") return v ? 1 : 0;
  return 0;
}

export function toFloat64(v: GoValue): number {
  if (typeof v === "string") {
    const t = v.trim() === v ? Number(v.replace(/_/g, "")) : NaN;
    return v !== "" && !Number.isNaN(t) ? t : 0;
  }
  if (v instanceof Num) return v.v;
  if (typeof v === "boolean") return v ? 1 : 0;
  return 0;
}

export function numericFunctions(): Map<string, GoFunc> {
  const m = new Map<string, GoFunc>();
  const set = (name: string, f: GoFunc) => m.set(name, f);
  set(
    "int64",
    fn(["any"], ([a]) => int64(toInt64(a!))),
  );
  set(
    "int",
    fn(["any"], ([a]) => int(toInt64(a!))),
  );
  set(
    "float64",
    fn(["any"], ([a]) => float(toFloat64(a!))),
  );
  set(
    "add1",
    fn(["any"], ([a]) => int64(toInt64(a!) + 1)),
  );
  set(
    "add",
    fn([], (args) => int64(args.reduce((acc: number, b) => acc + toInt64(b), 0)), "any"),
  );
  set(
    "sub",
    fn(["any", "any"], ([a, b]) => int64(toInt64(a!) - toInt64(b!))),
  );
  set(
    "mul",
    fn(["any"], ([a, ...rest]) => int64(rest.reduce((acc: number, b) => acc * toInt64(b), toInt64(a!))), "any"),
  );
  set(
    "div",
    fn(["any", "any"], ([a, b]) => {
      if (toInt64(b!) === 0) throw new FuncError("runtime error: integer divide by zero");
      return int64(Math.trunc(toInt64(a!) / toInt64(b!)));
    }),
  );
  set(
    "mod",
    fn(["any", "any"], ([a, b]) => {
      if (toInt64(b!) === 0) throw new FuncError("runtime error: integer divide by zero");
      return int64(toInt64(a!) % toInt64(b!));
    }),
  );
  set(
    "max",
    fn(["any"], ([a, ...rest]) => int64(Math.max(toInt64(a!), ...rest.map(toInt64))), "any"),
  );
  set("biggest", m.get("max")!);
  set(
    "min",
    fn(["any"], ([a, ...rest]) => int64(Math.min(toInt64(a!), ...rest.map(toInt64))), "any"),
  );
  set(
    "floor",
    fn(["any"], ([a]) => float(Math.floor(toFloat64(a!)))),
  );
  set(
    "ceil",
    fn(["any"], ([a]) => float(Math.ceil(toFloat64(a!)))),
  );
  set(
    "until",
    fn(["int"], ([c]) => untilStep(0, n(c), n(c) < 0 ? -1 : 1)),
  );
  set(
    "untilStep",
    fn(["int", "int", "int"], ([a, b, c]) => untilStep(n(a), n(b), n(c))),
  );
  set(
    "maxf",
    fn(
      ["any"],
      ([a, ...rest]) => float(rest.reduce((acc: number, b) => goMax(acc, toFloat64(b)), toFloat64(a!))),
      "any",
    ),
  );
  set(
    "minf",
    fn(
      ["any"],
      ([a, ...rest]) => float(rest.reduce((acc: number, b) => goMin(acc, toFloat64(b)), toFloat64(a!))),
      "any",
    ),
  );
  set(
    "round",
    fn(["any", "int"], ([a, p, ...on]) => float(round(toFloat64(a!), n(p), on.length ? n(on[0]) : 0.5)), "float64"),
  );
  set(
    "toDecimal",
    fn(["any"], ([v]) => int64(parseOctal(formatValue(v!)))),
  );
  set(
    "seq",
    fn([], (params) => seq(params.map(n)), "int"),
  );
  return m;
}

/** math.Max and math.Min: NaN wins, and the sign of zero counts. */
const goMax = (a: number, b: number) =>
  Number.isNaN(a) || Number.isNaN(b) ? NaN : a === b && a === 0 ? (Object.is(a, -0) ? b : a) : Math.max(a, b);
const goMin = (a: number, b: number) =>
  Number.isNaN(a) || Number.isNaN(b) ? NaN : a === b && a === 0 ? (Object.is(a, -0) ? a : b) : Math.min(a, b);

/** sprig's round: the fraction of val×10^places at or above roundOn rounds up (a negative one never does). */
function round(val: number, places: number, roundOn: number): number {
  const pow = 10 ** places;
  const digit = pow * val;
  const frac = digit - Math.trunc(digit);
  return (frac >= roundOn ? Math.ceil(digit) : Math.floor(digit)) / pow;
}

/** strconv.ParseInt(s, 8, 64), 0 on any error. */
function parseOctal(s: string): number {
  const m = /^([+-]?)([0-7]+)$/.exec(s);
  if (!m) return 0;
  const v = Number.parseInt(m[2]!, 8) * (m[1] === "-" ? -1 : 1);
  return Math.abs(v) < 2 ** 63 ? v : 0;
}

/** sprig's seq, as bash's: `seq end`, `seq start end`, `seq start step end`, space-separated. */
function seq(p: number[]): string {
  const steps = (start: number, stop: number, step: number) =>
    untilStep(start, stop, step)
      .map((v) => (v as Num).v)
      .join(" ");
  if (p.length === 1) {
    const inc = p[0]! < 1 ? -1 : 1;
    return steps(1, p[0]! + inc, inc);
  }
  if (p.length === 2) {
    const step = p[1]! < p[0]! ? -1 : 1;
    return steps(p[0]!, p[1]! + step, step);
  }
  if (p.length === 3) {
    const [start, step, end] = p as [number, number, number];
    if (end < start && step > 0) return "";
    return steps(start, end + (end < start ? -1 : 1), step);
  }
  return "";
}

export function untilStep(start: number, stop: number, step: number): GoValue[] {
  const v: GoValue[] = [];
  if (stop < start) {
    if (step >= 0) return v;
    for (let i = start; i > stop; i += step) v.push(int(i));
    return v;
  }
  if (step <= 0) return v;
  for (let i = start; i < stop; i += step) v.push(int(i));
  return v;
}
