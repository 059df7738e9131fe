// What the controller needs on its cluster before it can run, checked once at start so a fresh
// cluster gets one line saying what is missing and how to fix it — not a leader election retried for
// ever on `namespaces "flux-system" not found`. With --install-crds it creates what it needs.
import { servedCrds } from "../api/flux-crds.js";
import { SERVED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import type { Cluster } from "../kube/cluster.js";
import { NotFoundError } from "../kube/errors.js";
import { FlotillaError } from "../util/errors.js";

const CRD_SERVED_TIMEOUT_MS = 60_000;

export class PreflightError extends FlotillaError {
  override name = "PreflightError";
}

export interface PreflightOptions {
  runtimeNamespace: string;
  /** The Lease lives in the runtime namespace: only then must it exist. */
  leaderElection: boolean;
  installCrds: boolean;
}

async function exists(cluster: Cluster, path: string): Promise<boolean> {
  try {
    await cluster.client.get(path, { limit: 1 });
    return true;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}

export async function preflight(cluster: Cluster, o: PreflightOptions): Promise<void> {
  const where = cluster.client.cluster;
  if (o.installCrds) {
    for (const crd of servedCrds()) await cluster.apply(crd, "flotilla", { force: true });
    // A CRD just created is served a moment later: the controllers' first list must not find a 404.
    const deadline = Date.now() + CRD_SERVED_TIMEOUT_MS;
    for (const kind of Object.values(SERVED_KINDS)) {
      while (!(await exists(cluster, pathOf(kind)))) {
        if (Date.now() > deadline)
          throw new PreflightError(`${where}: the ${kind.kind} CRD was installed but is not served after 60s`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } else {
    const missing = [];
    for (const kind of Object.values(SERVED_KINDS)) if (!(await exists(cluster, pathOf(kind)))) missing.push(kind.kind);
    if (missing.length)
      throw new PreflightError(
        `${where}: flotilla's CRDs are not installed (no ${missing.join(", ")}): run \`flotilla install\`, or start the controller with --install-crds`,
      );
  }
  if (!o.leaderElection) return;
  const nsPath = `/api/v1/namespaces/${encodeURIComponent(o.runtimeNamespace)}`;
  if (await exists(cluster, nsPath)) return;
  if (o.installCrds) {
    await cluster.client.create("/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: o.runtimeNamespace },
    });
    return;
  }
  throw new PreflightError(
    `${where}: namespace "${o.runtimeNamespace}" does not exist (the leader-election Lease lives there): create it, pass --runtime-namespace with an existing one, or start with --install-crds to have flotilla create it`,
  );
}
