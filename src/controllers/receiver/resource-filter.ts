// spec.resourceFilter and spec.resources[].filter: CEL expressions returning a boolean, evaluated for
// each resource a webhook would ask to reconcile, with `res` (the resource's apiVersion, kind and
// metadata) and `req` (the request body parsed as JSON when its Content-Type says JSON, else {}).
// Both must accept a resource when both are set (Flux's internal/server/receiver_resource_filter.go).
// The reconciler compiles them first, so an invalid expression stalls the Receiver instead of failing
// each webhook (Flux's InvalidCELExpression).
import type { ReceiverSpec } from "../../api/notification/receiver.js";
import type { KubeObject } from "../../api/meta/object.js";
import { asCelValue, celEnvironment, type CelProgram, compileCel, runCel } from "../../util/cel.js";
import { ReconcileRequestFailed } from "./errors.js";

const environment = () => celEnvironment(["res", "req"]);

/** Compiles an expression as Flux does (declared `res` and `req`, boolean result); throws CelExpressionError. */
export function compileFilter(expression: string): CelProgram {
  return compileCel(environment(), expression, { bool: true });
}

/** Every filter of the spec compiled, or the first invalid one's message in Flux's words. */
export function invalidFilter(spec: ReceiverSpec): string | undefined {
  try {
    if (spec.resourceFilter) compileFilter(spec.resourceFilter);
  } catch (err) {
    return `invalid resourceFilter expression: ${(err as Error).message}`;
  }
  for (const [i, r] of (spec.resources ?? []).entries()) {
    if (!r.filter) continue;
    try {
      compileFilter(r.filter);
    } catch (err) {
      return `invalid filter expression for resources[${i}] (kind="${r.kind}", name="${r.name}"): ${(err as Error).message}`;
    }
  }
  return undefined;
}

export type ResourceFilter = (resource: KubeObject) => boolean;

/** isJSONContent: any of the comma-separated Content-Type values is application/json. */
export function isJsonContent(contentType: string | undefined): boolean {
  for (const part of (contentType ?? "").split(",")) {
    const type = part.split(";")[0]!.trim().toLowerCase();
    if (!type) return false;
    if (type === "application/json") return true;
  }
  return false;
}

/**
 * One filter per spec.resources entry (undefined: accept all), sharing one parse of the body. A body
 * that says JSON and is not, or an evaluation error, is a ReconcileRequestFailed (Flux answers 500).
 */
export function resourceFilters(
  spec: ReceiverSpec,
  contentType: string | undefined,
  payload: Buffer,
): (ResourceFilter | undefined)[] {
  const resources = spec.resources ?? [];
  if (!spec.resourceFilter && !resources.some((r) => r.filter)) return resources.map(() => undefined);
  let req: unknown = {};
  if (isJsonContent(contentType)) {
    try {
      req = JSON.parse(payload.toString("utf8"));
    } catch (err) {
      throw new ReconcileRequestFailed(`failed to parse request body as JSON: ${(err as Error).message}`);
    }
  }
  const vars = { req: asCelValue(req) };
  const filterOf = (expression: string): ResourceFilter => {
    const program = compileFilter(expression);
    return (resource) => {
      const res = asCelValue({ apiVersion: resource.apiVersion, kind: resource.kind, metadata: resource.metadata });
      let out: unknown;
      try {
        out = runCel(program, { ...vars, res });
      } catch (err) {
        throw new ReconcileRequestFailed(`evaluating '${expression}': ${(err as Error).message}`);
      }
      if (typeof out !== "boolean") throw new ReconcileRequestFailed(`'${expression}' did not return a boolean`);
      return out;
    };
  };
  const top = spec.resourceFilter ? filterOf(spec.resourceFilter) : undefined;
  return resources.map((r) => {
    const own = r.filter ? filterOf(r.filter) : undefined;
    if (!top || !own) return top ?? own;
    return (resource) => top(resource) && own(resource);
  });
}
