// A runtime cost budget for CEL, as Kubernetes bounds the CEL of CRDs (k8s.io/apiserver
// pkg/apis/cel PerCallLimit): cel-js 8.0.0 has parse-time limits only, so every node the evaluator
// runs is charged here, by a hook on its one dispatch method (Evaluator#run, which every
// sub-expression and every comprehension step goes through), and the evaluation stops once the
// budget is spent. Operations pay for the size of what they consume and produce (a comparison of
// two lists, a concatenation, size() of a map), so a single step cannot hide unbounded work.
// Regular expressions: V8 may backtrack exponentially, so the linear-time engine takes over a
// pattern that backtracks too much, and patterns only a backtracking engine can run (back-references,
// look-arounds) are refused, as cel-go's RE2 refuses them. Decision 0029.
import { setFlagsFromString } from "node:v8";
import { Environment } from "@marcbachmann/cel-js";
import { FlotillaError } from "./errors.js";

/** Kubernetes' per-expression limit (PerCallLimit, "roughly 0.1 second" in cel-go). */
export const DEFAULT_CEL_COST_LIMIT = 1_000_000;

export class CelCostLimitError extends FlotillaError {
  override name = "CelCostLimitError";
  constructor(readonly limit: number) {
    super(`exceeded the CEL cost limit of ${limit} (controller flag --cel-cost-limit)`);
  }
}

interface Meter {
  limit: number;
  spent: number;
  /** How the node being run pays for its operands: not at all (an access), by their size, or by their depth. */
  payer: Payer;
  operands: number;
}

type Payer = "" | "shallow" | "deep" | "in";

let meter: Meter | undefined;

// Operations whose work grows with their operands; accesses, literals, logic and comprehensions pay one
// per node (every step of a comprehension is a node). Equality compares deeply; `in` scans a list.
const PAYERS = new Map<string, Payer>([
  ...["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "!_", "-_", "call", "rcall"].map((op) => [op, "shallow"] as const),
  ["==", "deep"],
  ["!=", "deep"],
  ["in", "in"],
]);

const deepSizes = new WeakMap<object, number>();

/** Strings cost a tenth of their length (Kubernetes' traversal factor), lists and maps their entries. */
function sizeOf(v: unknown, payer: Payer): number {
  if (typeof v === "string") return Math.ceil(v.length / 10);
  if (!v || typeof v !== "object") return 1;
  if (v instanceof Uint8Array) return Math.ceil(v.length / 10);
  const list = Array.isArray(v);
  // `key in map` is a lookup, not a scan.
  if (payer === "in" && !list) return 1;
  if (payer === "shallow") return list ? v.length : v instanceof Map || v instanceof Set ? v.size : keyCount(v);
  let size = deepSizes.get(v);
  if (size === undefined) {
    size = 1;
    const values = list ? v : v instanceof Map || v instanceof Set ? [...v.values()] : Object.values(v);
    for (const x of values) size += sizeOf(x, "deep");
    deepSizes.set(v, size);
  }
  return size;
}

function keyCount(v: object): number {
  let n = 0;
  for (const _ in v) n++;
  return n;
}

function charge(m: Meter, units: number): void {
  m.spent += units;
  if (m.spent > m.limit) throw new CelCostLimitError(m.limit);
}

interface Node {
  op: string;
  args: unknown;
  meta: { alternate?: Node; macro?: { evaluate: Evaluate }; evaluate: Evaluate };
}
type Evaluate = (ev: Evaluator, ast: never, ctx: unknown) => unknown;
interface Evaluator {
  run(ast: Node, ctx: unknown): unknown;
}

/** What cel-js's ASTNode#evaluate does, without caching the choice on the node (the root is wrapped). */
function dispatch(ev: Evaluator, ast: Node, ctx: unknown): unknown {
  const { alternate, macro, evaluate } = ast.meta;
  if (alternate) return (alternate as unknown as { evaluate: Evaluate }).evaluate(ev, alternate as never, ctx);
  if (macro) return macro.evaluate(ev, macro as never, ctx);
  return evaluate(ev, ast as never, ctx);
}

function meteredRun(this: Evaluator, ast: Node, ctx: unknown): unknown {
  const m = meter;
  if (!m) return dispatch(this, ast, ctx);
  charge(m, 1);
  // Macros (all, exists, map, filter, has, bind) are comprehensions underneath: their steps pay.
  const macro = ast.meta.alternate !== undefined || ast.meta.macro !== undefined;
  const payer = macro ? "" : (PAYERS.get(ast.op) ?? "");
  const outer = { payer: m.payer, operands: m.operands };
  m.payer = payer;
  m.operands = 0;
  let value: unknown;
  let operands: number;
  try {
    value = isMatches(ast) ? guardedMatches(this, ast, ctx) : dispatch(this, ast, ctx);
  } finally {
    operands = m.operands;
    m.payer = outer.payer;
    m.operands = outer.operands;
  }
  if (payer) charge(m, operands + (payer === "shallow" ? sizeOf(value, payer) : 0));
  if (outer.payer) m.operands += sizeOf(value, outer.payer);
  return value;
}

const isMatches = (ast: Node) =>
  (ast.op === "rcall" || ast.op === "call") && (ast.args as unknown[])[0] === "matches" && !ast.meta.alternate;

export class CelRegexError extends FlotillaError {
  override name = "CelRegexError";
}

// Back-references and look-arounds: only a backtracking engine runs them, and RE2 (cel-go) refuses them.
const BACKTRACKING_ONLY = /\\[1-9k]|\(\?<?[=!]/;

/** `s.matches(p)` / `matches(s, p)`: the pattern is checked before V8 runs it. */
function guardedMatches(ev: Evaluator, ast: Node, ctx: unknown): unknown {
  const args = ast.args as unknown[];
  const [text, pattern] = (ast.op === "rcall" ? [args[1], (args[2] as Node[])[0]] : args[1]) as Node[];
  const s = ev.run(text!, ctx);
  const p = ev.run(pattern!, ctx);
  if (typeof s !== "string" || typeof p !== "string") return dispatch(ev, ast, ctx);
  if (BACKTRACKING_ONLY.test(p.replace(/\\\\/g, "")))
    throw new CelRegexError(`matches: '${p}' uses back-references or look-arounds, which RE2 does not support`);
  try {
    return new RegExp(p).test(s);
  } catch {
    throw new CelRegexError(`Invalid regular expression: ${p}`);
  }
}

let hooked = false;

/** Puts the meter on cel-js's evaluator (once per process) and the regexp fallback on V8. */
function hook(): void {
  if (hooked) return;
  hooked = true;
  // The linear-time engine takes over from a backtracking one that runs too long (V8 flag, no semantic change).
  setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks");
  // Function handlers run with the evaluator as `this`: one call reveals its class, shared by every environment.
  const found: { proto?: { run: unknown } } = {};
  const probe = new Environment().registerFunction("flotillaProbe(): bool", function (this: object) {
    found.proto = Object.getPrototypeOf(this) as { run: unknown };
    return true;
  });
  probe.evaluate("flotillaProbe()");
  if (typeof found.proto?.run !== "function") throw new FlotillaError("cel-js: the evaluator's dispatch was not found");
  found.proto.run = meteredRun;
}

/** Makes the root of a parsed program pay too (cel-js calls the root directly, not through run). */
export function meterRoot(root: object): void {
  hook();
  (root as { evaluate: unknown }).evaluate = function (ev: Evaluator, ast: Node, ctx: unknown) {
    return meteredRun.call(ev, ast, ctx);
  };
}

/** Runs `evaluate` with at most `limit` units of CEL cost; throws CelCostLimitError past it. */
export function withCelBudget<T>(limit: number, evaluate: () => T): { value: T; cost: number } {
  hook();
  const previous = meter;
  const m: Meter = { limit, spent: 0, payer: "", operands: 0 };
  meter = m;
  try {
    return { value: evaluate(), cost: m.spent };
  } catch (err) {
    // A spent budget surfaces as whatever error cel-js rethrew on the way out (quantifiers keep the first one).
    if (m.spent > m.limit) throw new CelCostLimitError(limit);
    throw err;
  } finally {
    meter = previous;
  }
}
