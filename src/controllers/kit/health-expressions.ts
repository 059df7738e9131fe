// spec.healthCheckExprs compiled at the start of a reconcile, for every kind that has them (Kustomization,
// HelmRelease): one that does not parse stalls the object with Flux's InvalidCELExpression, naming it.
import { compileHealthExpressions, type ExpressionHealth, InvalidHealthExpressionError } from "../../ssa/index.js";
import { ReconcileFailure } from "./failure.js";

/** Flux's wording for a configuration error that no retry can fix. */
export const TERMINAL_CONFIG_ERROR = "Reconciliation failed terminally due to configuration error";

export function compileHealthChecksOrStall(
  exprs: Parameters<typeof compileHealthExpressions>[0],
): ExpressionHealth | undefined {
  try {
    return compileHealthExpressions(exprs);
  } catch (err) {
    if (!(err instanceof InvalidHealthExpressionError)) throw err;
    throw new ReconcileFailure("InvalidCELExpression", `${TERMINAL_CONFIG_ERROR}: ${err.message}`, { stalled: true });
  }
}
