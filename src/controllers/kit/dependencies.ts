// dependsOn, as Flux judges it for every kind that has it (Kustomization, HelmRelease): a dependency is
// ready when it exists, has observed its latest generation and is Ready=True; the kind may add its own
// rule (kustomization/dependencies.ts: the same source revision). A dependency with readyExpr is judged
// by that CEL expression instead (`self` is the dependent, `dep` the dependency), as Flux does without
// its AdditiveCELDependencyCheck gate. An entry with `apiVersion` and `kind` may name any other kind
// (dependency-object.ts). Shared here so no controller imports another kind's folder.
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import { isTrue } from "../../runtime/conditions.js";
import { type Condition, READY } from "../../api/meta/conditions.js";
import { asCelValue, CelCostLimitError, type CelProgram, celEnvironment, compileCel, runCel } from "../../util/cel.js";
import { type DependencyRef, isOtherKind, readOtherKind, requireOtherKindReady } from "./dependency-object.js";
import { findDependencyCycle } from "./dependency-cycle.js";
import { ReconcileFailure } from "./failure.js";

/** What dependsOn needs of an object, whatever its kind (Kustomization, HelmRelease). */
export interface Dependent {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; generation?: number };
  spec: { dependsOn?: DependencyRef[] };
  status?: { observedGeneration?: number; conditions?: Condition[] };
}

const readyExprEnv = celEnvironment(["self", "dep"]);

/** Every readyExpr compiled (type-checked, boolean), so a bad one stalls before anything else. */
export function compileReadyExprs(ks: Dependent): Map<number, CelProgram> {
  const compiled = new Map<number, CelProgram>();
  (ks.spec.dependsOn ?? []).forEach((dep, i) => {
    if (!dep.readyExpr) return;
    try {
      compiled.set(i, compileCel(readyExprEnv, dep.readyExpr, { bool: true }));
    } catch (err) {
      throw new ReconcileFailure(
        "InvalidCELExpression",
        `Reconciliation failed terminally due to configuration error: spec.dependsOn[${i}].readyExpr: ${(err as Error).message}`,
        { stalled: true },
      );
    }
  });
  return compiled;
}

/**
 * dependsOn for any kind: each dependency (same kind, at `path`) exists, has observed its generation and
 * is Ready (or passes its readyExpr); `more` adds the kind's own rule. While one is not ready, a cycle
 * back to this object (across kinds) is looked for and named instead: it would never end by waiting.
 */
export async function checkDependsOn<T extends Dependent>(
  cluster: Cluster,
  ks: T,
  refs: { noCrossNamespaceRefs?: boolean; waitMs: number; path: (ns: string, name: string) => string },
  readyExprs: Map<number, CelProgram> = compileReadyExprs(ks),
  more?: (other: T, notReady: ReconcileFailure) => Promise<void>,
): Promise<void> {
  try {
    await checkEach(cluster, ks, refs, readyExprs, more);
  } catch (err) {
    if (!(err instanceof ReconcileFailure) || err.reason !== "DependencyNotReady") throw err;
    const cycle = await findDependencyCycle(
      cluster.client,
      {
        ...ks,
        apiVersion: ks.apiVersion ?? "kustomize.toolkit.fluxcd.io/v1",
        kind: ks.kind ?? "Kustomization",
      },
      refs.noCrossNamespaceRefs,
    ).catch(() => undefined); // the walk is a diagnosis: the wait's own message stands if it cannot run
    if (!cycle) throw err;
    // Retried, not Stalled: the cycle is broken by editing any object in it, which does not requeue this one.
    throw new ReconcileFailure(
      "DependencyNotReady",
      `dependency cycle: ${cycle.join(" → ")}: each waits for the next; remove one of these dependsOn entries`,
      { retryAfterMs: refs.waitMs },
    );
  }
}

async function checkEach<T extends Dependent>(
  cluster: Cluster,
  ks: T,
  refs: { noCrossNamespaceRefs?: boolean; waitMs: number; path: (ns: string, name: string) => string },
  readyExprs: Map<number, CelProgram> = compileReadyExprs(ks),
  more?: (other: T, notReady: ReconcileFailure) => Promise<void>,
): Promise<void> {
  const kind = ks.kind ?? "Kustomization";
  for (const [i, dep] of (ks.spec.dependsOn ?? []).entries()) {
    const ns = dep.namespace ?? ks.metadata.namespace!;
    // --no-cross-namespace-refs covers every reference between objects, dependsOn included.
    if (refs.noCrossNamespaceRefs && ns !== ks.metadata.namespace)
      throw new ReconcileFailure(
        "AccessDenied",
        `can't access '${dep.kind ?? kind}/${ns}/${dep.name}', cross-namespace references have been blocked`,
        { stalled: true },
      );
    const readyExpr = readyExprs.get(i);
    if (isOtherKind(dep, ks)) {
      const { obj, id } = await readOtherKind(cluster, dep, i, ns, refs.waitMs);
      if (readyExpr) judgeReadyExpr(readyExpr, ks, obj, dep, i, id, refs.waitMs);
      else requireOtherKindReady(dep, obj, id, refs.waitMs);
      continue;
    }
    const notReady = new ReconcileFailure("DependencyNotReady", `dependency '${ns}/${dep.name}' is not ready`, {
      retryAfterMs: refs.waitMs,
    });
    let other: T;
    try {
      other = await cluster.client.get<T>(refs.path(ns, dep.name));
    } catch (err) {
      if (err instanceof NotFoundError) throw notReady;
      throw err;
    }
    if (readyExpr) {
      judgeReadyExpr(readyExpr, ks, other, dep, i, `${ns}/${dep.name}`, refs.waitMs);
      continue;
    }
    if (other.status?.observedGeneration !== other.metadata.generation || !isTrue(other.status?.conditions, READY))
      throw notReady;
    await more?.(other, notReady);
  }
}

/** A readyExpr verdict on the dependency (`dep`) for the dependent (`self`); throws DependencyNotReady unless true. */
function judgeReadyExpr(
  program: CelProgram,
  self: Dependent,
  other: unknown,
  dep: DependencyRef,
  i: number,
  id: string,
  waitMs: number,
): void {
  let ready: unknown;
  try {
    ready = runCel(program, { self: asCelValue(self), dep: asCelValue(other) });
  } catch (err) {
    // Too costly: the message names the expression, as the cost may depend on the dependency's data.
    const what = err instanceof CelCostLimitError ? `spec.dependsOn[${i}].readyExpr '${dep.readyExpr}'` : "";
    throw new ReconcileFailure(
      "DependencyNotReady",
      what
        ? `dependency '${id}': ${what} ${(err as Error).message}`
        : `dependency '${id}' readyExpr could not be evaluated: ${(err as Error).message}`,
      { retryAfterMs: waitMs },
    );
  }
  if (ready !== true)
    throw new ReconcileFailure("DependencyNotReady", `dependency '${id}' is not ready according to readyExpr eval`, {
      retryAfterMs: waitMs,
    });
}
