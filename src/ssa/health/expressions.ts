// Health judged by CEL expressions instead of kstatus, for the kinds a Kustomization names in
// spec.healthCheckExprs (Flux's RFC 0009 rules, fluxcd/pkg runtime/cel): an object whose
// status.observedGeneration lags metadata.generation is InProgress; otherwise `inProgress`, then
// `failed`, then `current` are evaluated against the object (its top-level fields are the
// variables: metadata, spec, status...) and the first that is true decides; none true is
// InProgress. An expression that cannot be evaluated (a field not there yet) keeps the object
// InProgress and says why, so the wait's timeout names it. Expressions are data here: compiled once
// per reconcile by the caller, with @marcbachmann/cel-js (decision 0016). An expression that exceeds the
// CEL cost limit fails the wait at once (HealthExpressionCostError): waiting would spend it again at
// every poll (decision 0029).
import type { HealthCheckExpr } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import { asCelValue, CelCostLimitError, type CelProgram, celEnvironment, compileCel, runCel } from "../../util/cel.js";
import { FlotillaError } from "../../util/errors.js";
import type { Health } from "./status.js";

export class InvalidHealthExpressionError extends FlotillaError {
  override name = "InvalidHealthExpressionError";
}

/** An expression ran past the CEL cost limit on an object: the health check fails, naming both. */
export class HealthExpressionCostError extends FlotillaError {
  override name = "HealthExpressionCostError";
}

/** The health of an object by the expressions for its kind; undefined when none covers that kind. */
export type ExpressionHealth = (obj: KubeObject) => Health | undefined;

// Any top-level field of the object may be named, so every name is a dynamic variable.
const env = celEnvironment();

const ORDER = [
  ["inProgress", "InProgress"],
  ["failed", "Failed"],
  ["current", "Current"],
] as const;

type Compiled = { field: (typeof ORDER)[number][0]; status: Health["status"]; text: string; run: CelProgram }[];

const groupOf = (apiVersion: string) => (apiVersion.includes("/") ? apiVersion.split("/")[0]! : "");

function compileOne(check: HealthCheckExpr, index: number): Compiled {
  const compiled: Compiled = [];
  for (const [field, status] of ORDER) {
    const text = check[field];
    if (field === "current" && !text)
      throw new InvalidHealthExpressionError(`healthCheckExprs[${index}]: expression current not specified`);
    if (!text) continue;
    try {
      compiled.push({ field, status, text, run: compileCel(env, text) });
    } catch (err) {
      throw new InvalidHealthExpressionError(`healthCheckExprs[${index}].${field}: ${(err as Error).message}`);
    }
  }
  return compiled;
}

/** Compiles the checks; throws InvalidHealthExpressionError naming the first bad one. */
export function compileHealthExpressions(checks: HealthCheckExpr[] | undefined): ExpressionHealth | undefined {
  if (!checks?.length) return undefined;
  const byKind = new Map<string, Compiled>();
  checks.forEach((check, i) => {
    // Without a kind, the expressions cover every kind of the apiVersion's group.
    const key = `${groupOf(check.apiVersion)}/${check.kind ?? ""}`;
    if (byKind.has(key))
      throw new InvalidHealthExpressionError(
        `healthCheckExprs[${i}]: duplicate custom health check for ${check.kind ?? "every kind"} of group '${groupOf(check.apiVersion)}'`,
      );
    byKind.set(key, compileOne(check, i));
  });
  return (obj) => {
    const group = groupOf(obj.apiVersion);
    const compiled = byKind.get(`${group}/${obj.kind}`) ?? byKind.get(`${group}/`);
    return compiled && evaluate(compiled, obj);
  };
}

function evaluate(compiled: Compiled, obj: KubeObject): Health {
  const generation = obj.metadata.generation;
  const observed = (obj as { status?: { observedGeneration?: unknown } }).status?.observedGeneration;
  if (typeof generation === "number" && typeof observed === "number" && observed !== generation)
    return {
      status: "InProgress",
      message: `${obj.kind} generation is ${generation}, but latest observed generation is ${observed}`,
    };
  const data = asCelValue(obj) as Record<string, unknown>;
  for (const { field, status, text, run } of compiled) {
    let result: unknown;
    try {
      result = runCel(run, data);
    } catch (err) {
      if (err instanceof CelCostLimitError)
        throw new HealthExpressionCostError(
          `healthCheckExprs ${field} '${text}' on ${obj.kind}/${obj.metadata.namespace ? `${obj.metadata.namespace}/` : ""}${obj.metadata.name}: ${err.message}`,
        );
      return {
        status: "InProgress",
        message: `healthCheckExprs ${field} '${text}' could not be evaluated: ${(err as Error).message}`,
      };
    }
    if (typeof result !== "boolean")
      return { status: "InProgress", message: `healthCheckExprs ${field} '${text}' is not a boolean expression` };
    if (result) return { status, message: `healthCheckExprs ${field} is true: ${text}` };
  }
  return { status: "InProgress", message: "no healthCheckExprs expression is true yet" };
}
