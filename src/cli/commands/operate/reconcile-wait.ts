// Asking a controller to reconcile now and waiting until it has, as `flux reconcile` does: stamp
// reconcile.fluxcd.io/requestedAt (and forceAt/resetAt for a HelmRelease), poll until
// status.lastHandledReconcileAt moves and the object has settled (kstatus: observed generation
// current, not Reconciling, Ready not Unknown), then read Ready.
import { pathOf } from "../../../api/paths.js";
import type { Cluster } from "../../../kube/cluster.js";
import { OutcomeError } from "../../errors.js";
import type { FluxObject } from "../get/get-kinds.js";
import type { OperateKind } from "./operate-kinds.js";

export interface Handled extends FluxObject {
  status?: FluxObject["status"] & { lastHandledReconcileAt?: string; observedGeneration?: number };
}

const POLL_MS = 1000;

export const objectPath = (k: OperateKind, ns: string, name: string) => pathOf(k.entry, ns, name);

export async function readObject(cluster: Cluster, k: OperateKind, ns: string, name: string): Promise<Handled> {
  return cluster.client.get<Handled>(objectPath(k, ns, name));
}

/** Stamps the request annotations with one timestamp (RFC 3339, nanoseconds as Go prints them). */
export async function requestReconcile(
  cluster: Cluster,
  k: OperateKind,
  ns: string,
  name: string,
  extra: string[] = [],
): Promise<void> {
  const at = new Date().toISOString();
  const annotations = Object.fromEntries(["reconcile.fluxcd.io/requestedAt", ...extra].map((a) => [a, at]));
  await cluster.client.patch(objectPath(k, ns, name), "merge", { metadata: { annotations } });
}

type Settled = { state: "current" } | { state: "in-progress"; why: string } | { state: "failed"; message: string };

/** kstatus for Flux objects: what `flux reconcile` waits on before it reads Ready. */
export function settledOf(o: Handled): Settled {
  const cond = (t: string) => o.status?.conditions?.find((c) => c.type === t);
  const observed = o.status?.observedGeneration;
  if (observed !== undefined && o.metadata.generation !== undefined && observed < o.metadata.generation)
    return { state: "in-progress", why: `generation ${o.metadata.generation} not observed yet` };
  const reconciling = cond("Reconciling");
  // A failed attempt leaves Reconciling=True as ProgressingWithRetry beside Ready=False: the attempt is over.
  // kstatus calls that in progress, so flux waits out its whole --timeout on a failure (flux2#3997); not here.
  const retrying = reconciling?.reason === "ProgressingWithRetry" && cond("Ready")?.status === "False";
  if (reconciling?.status === "True" && !retrying) return { state: "in-progress", why: reconciling.message ?? "" };
  if (cond("Stalled")?.status === "True") return { state: "failed", message: cond("Stalled")!.message ?? "stalled" };
  const ready = cond("Ready");
  if (!ready || ready.status === "Unknown")
    return { state: "in-progress", why: ready?.message ?? "no Ready condition" };
  return { state: "current" };
}

/** Polls until the request after `before` is handled and the object settled; returns it. */
export async function waitHandled(
  cluster: Cluster,
  k: OperateKind,
  ns: string,
  name: string,
  before: string | undefined,
  deadline: number,
  timeout: string,
): Promise<Handled> {
  let last: Handled | undefined;
  let why = "the request not handled yet";
  while (Date.now() < deadline) {
    last = await readObject(cluster, k, ns, name);
    if (last.status?.lastHandledReconcileAt !== before) {
      const s = settledOf(last);
      if (s.state === "current") return last;
      if (s.state === "failed") throw new OutcomeError(s.message);
      why = s.why;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new OutcomeError(`timed out after ${timeout} waiting for ${k.entry.kind} ${ns}/${name}: ${why}`);
}

/** Ready after a handled reconcile: the success line's text, or an error with flux's wording. */
export function outcomeOf(k: OperateKind, o: Handled, quote: boolean): string {
  const ready = o.status?.conditions?.find((c) => c.type === "Ready");
  if (!ready) throw new OutcomeError("status can't be determined");
  if (ready.status !== "True")
    throw new OutcomeError(
      quote
        ? `${k.entry.kind} reconciliation failed: '${ready.message ?? ""}'`
        : `${k.entry.kind} reconciliation failed: ${ready.message ?? ""}`,
    );
  return k.success(o);
}
