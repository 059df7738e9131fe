// The root sync a FluxInstance's spec.sync creates, as the operator's builder writes it (internal/
// builder/templates.go syncTmpl): a GitRepository or OCIRepository and a Kustomization (interval 10m,
// prune, the source by name), both named after the instance's namespace unless sync.name says otherwise,
// with the labels and annotations of the operator's manifests (app.kubernetes.io/*, and kustomize's
// ssa: Ignore / prune: Disabled so a root Kustomization that also lists them leaves them alone).
import type { KubeObject } from "../../api/meta/object.js";
import type { FluxInstance, FluxInstanceSync } from "../../api/operator/fluxinstance.js";
import { FLUX_API_VERSION } from "./mapping.js";

/** The sync's name: sync.name, else the namespace (flux-system), as fluxinstance_controller.go does. */
export const syncName = (fi: FluxInstance) => fi.spec.sync?.name || fi.metadata.namespace!;

/** Go's time.Duration.String() of a Flux duration ("1m" → "1m0s", "90s" → "1m30s"), as the template prints it. */
export function goDurationString(text: string): string {
  const units: Record<string, number> = { h: 3600e3, m: 60e3, s: 1e3, ms: 1 };
  let ms = 0;
  for (const [, n, u] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) ms += Number(n) * units[u!]!;
  if (ms === 0) return "0s";
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3600e3);
  const m = Math.floor((ms % 3600e3) / 60e3);
  const s = Number(((ms % 60e3) / 1000).toFixed(3));
  return `${h ? `${h}h` : ""}${h || m ? `${m}m` : ""}${s}s`;
}

export function syncObjects(fi: FluxInstance, opts: { tenantServiceAccount?: string } = {}): KubeObject[] {
  const sync = fi.spec.sync as FluxInstanceSync;
  const name = syncName(fi);
  const namespace = fi.metadata.namespace!;
  const metadata = () => ({
    name,
    namespace,
    labels: {
      "app.kubernetes.io/managed-by": "flux-operator",
      "app.kubernetes.io/instance": namespace,
      "app.kubernetes.io/version": FLUX_API_VERSION,
      "app.kubernetes.io/part-of": "flux",
      ...fi.spec.commonMetadata?.labels,
    },
    annotations: {
      "kustomize.toolkit.fluxcd.io/ssa": "Ignore",
      "kustomize.toolkit.fluxcd.io/prune": "Disabled",
      ...fi.spec.commonMetadata?.annotations,
    },
  });
  const source: KubeObject = {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: sync.kind,
    metadata: metadata(),
    spec: {
      interval: goDurationString(sync.interval ?? "1m"),
      ref: sync.kind === "GitRepository" ? { name: sync.ref } : { tag: sync.ref },
      ...(sync.pullSecret ? { secretRef: { name: sync.pullSecret } } : {}),
      ...(sync.provider ? { provider: sync.provider } : {}),
      url: sync.url,
    },
  };
  const kustomization: KubeObject = {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: metadata(),
    spec: {
      interval: "10m0s",
      path: sync.path,
      prune: true,
      sourceRef: { kind: sync.kind, name },
      // The multitenant profile's patch: the root sync runs as the controller's own service account.
      ...(opts.tenantServiceAccount ? { serviceAccountName: opts.tenantServiceAccount } : {}),
    },
  };
  return [source, kustomization];
}
