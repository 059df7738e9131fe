// The HTTP GET every remote input provider makes (ExternalService, the Git forges): TLS from
// certSecretRef (ca.crt, tls.crt + tls.key), the whole call under the provider's reconcileTimeout — a
// server that drips its answer is cut off at the deadline, and the message names it — and the body read
// only up to a cap (900 KiB for ExternalService as the operator, 10 MiB a page for forges), never whole
// into memory first. Messages name the address, never a header's value.
import { Agent, type Dispatcher, fetch } from "undici";
import type { ResourceSetInputProvider } from "../../api/operator/resourceset-input-provider.js";
import type { Cluster } from "../../kube/cluster.js";
import { readCapped } from "../../util/read-capped.js";
import { goDuration } from "../kit/operator-annotations.js";

export interface CallBudget {
  signal: AbortSignal;
  timeoutMs: number;
  dispatcher?: Dispatcher;
}

export async function secretOf(
  cluster: Cluster,
  p: ResourceSetInputProvider,
  field: "secretRef" | "certSecretRef",
): Promise<Record<string, string> | undefined> {
  const ref = p.spec[field] as { name?: string } | undefined;
  if (!ref?.name) return undefined;
  const s = (await cluster.get({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: ref.name, namespace: p.metadata.namespace! },
  })) as { data?: Record<string, string> } | undefined;
  if (!s)
    throw new Error(`failed to read secret '${p.metadata.namespace}/${ref.name}': Secret "${ref.name}" not found`);
  return Object.fromEntries(Object.entries(s.data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString()]));
}

/** One budget per reconcile: the deadline and, with certSecretRef, the TLS settings. */
export async function budgetFor(cluster: Cluster, p: ResourceSetInputProvider, timeoutMs: number): Promise<CallBudget> {
  const signal = AbortSignal.timeout(timeoutMs);
  const tls = await secretOf(cluster, p, "certSecretRef");
  if (!tls) return { signal, timeoutMs };
  const where = `spec.certSecretRef: Secret '${p.metadata.namespace}/${(p.spec.certSecretRef as { name: string }).name}'`;
  const [ca, cert, key] = [tls["ca.crt"], tls["tls.crt"], tls["tls.key"]];
  if (!ca && !cert) throw new Error(`${where} has neither 'ca.crt' nor 'tls.crt'`);
  if (!!cert !== !!key) throw new Error(`${where} needs both 'tls.crt' and 'tls.key'`);
  return { signal, timeoutMs, dispatcher: new Agent({ connect: { ca, cert, key } }) };
}

const timedOut = (b: CallBudget) => `timed out after ${goDuration(b.timeoutMs)} (the provider's reconcileTimeout)`;
const why = (err: unknown, b: CallBudget) =>
  b.signal.aborted ? timedOut(b) : ((err as { cause?: Error }).cause?.message ?? (err as Error).message);

export interface Got {
  status: number;
  headers: { get(name: string): string | null };
  body: Buffer;
}

/**
 * GET `url`; non-2xx answers come back with their (capped) body for the caller to word. `tooLarge`
 * words the cap; `what` names the call in connection and timeout errors.
 */
export async function getCapped(
  url: string,
  headers: Record<string, string>,
  b: CallBudget,
  maxBytes: number,
  what: string,
  tooLarge: () => string,
): Promise<Got> {
  let res;
  try {
    res = await fetch(url, { headers, signal: b.signal, redirect: "follow", dispatcher: b.dispatcher });
  } catch (err) {
    throw new Error(`failed to call ${what}: ${why(err, b)}`);
  }
  try {
    const body = await readCapped(res, maxBytes, tooLarge);
    return { status: res.status, headers: res.headers, body };
  } catch (err) {
    if (b.signal.aborted) throw new Error(`failed to read response from ${what}: ${timedOut(b)}`);
    throw err;
  }
}
