// CEL as Flux evaluates it (fluxcd/pkg runtime/cel), with @marcbachmann/cel-js (decision 0016): one
// environment shape (optional types, homogeneous literals, bounded ASTs), expressions parsed once
// and run many times, and Kubernetes JSON handed over as Go's unstructured objects hold it. Every
// evaluation runs under a cost budget (cel-cost.ts, decision 0029): tenants write these expressions and
// the controllers share one event loop.
import { Environment, type ParseResult } from "@marcbachmann/cel-js";
import { CelCostLimitError, DEFAULT_CEL_COST_LIMIT, meterRoot, withCelBudget } from "./cel-cost.js";
import { FlotillaError } from "./errors.js";

export { CelCostLimitError, DEFAULT_CEL_COST_LIMIT };

let costLimit = DEFAULT_CEL_COST_LIMIT;

/** The cost limit of every evaluation in this process (`flotilla controller --cel-cost-limit`). */
export function setCelCostLimit(limit: number): void {
  costLimit = limit;
}

export class CelExpressionError extends FlotillaError {
  override name = "CelExpressionError";
}

export type CelProgram = ParseResult;

/**
 * An environment with the given map variables declared and checked (dependsOn's `self` and `dep`);
 * without any, every name is a dynamic variable (health expressions name the object's top-level fields).
 */
export function celEnvironment(variables: string[] = []): Environment {
  const env = new Environment({
    unlistedVariablesAreDyn: variables.length === 0,
    enableOptionalTypes: true,
    homogeneousAggregateLiterals: true,
    limits: { maxAstNodes: 10_000, maxDepth: 100 },
  });
  for (const v of variables) env.registerVariable(v, "map");
  return env;
}

const firstLine = (err: unknown) => (err as Error).message.split("\n")[0]!;

/** Parses `text`; with `bool`, also type-checks it and requires a boolean result (Flux's WithOutputType). */
export function compileCel(env: Environment, text: string, opts: { bool?: boolean } = {}): CelProgram {
  let program: CelProgram;
  try {
    program = env.parse(text);
  } catch (err) {
    throw new CelExpressionError(`failed to parse the CEL expression '${text}': ${firstLine(err)}`);
  }
  if (opts.bool) {
    const checked = program.check();
    if (!checked.valid)
      throw new CelExpressionError(`failed to check the CEL expression '${text}': ${firstLine(checked.error)}`);
    if (checked.type !== "bool")
      throw new CelExpressionError(`CEL expression '${text}' must be boolean, not ${checked.type}`);
  }
  meterRoot(program.ast);
  return program;
}

/**
 * Runs a program within the cost limit; an evaluation error's first line becomes the message. Past the
 * limit it throws CelCostLimitError (the object's expression is too expensive, not wrong).
 */
export function runCel(program: CelProgram, data: Record<string, unknown>): unknown {
  try {
    return withCelBudget(costLimit, () => program(data)).value;
  } catch (err) {
    if (err instanceof CelCostLimitError) throw err;
    throw new CelExpressionError(firstLine(err));
  }
}

/** JSON as CEL sees a Kubernetes object: whole numbers are ints (int64 in Go), others doubles. */
export function asCelValue(v: unknown): unknown {
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(asCelValue);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asCelValue(x)]));
  return v;
}
