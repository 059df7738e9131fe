// The kubeconfig helm reads, written from the endpoint flotilla already resolved (the controller's own,
// or the one parsed — and checked — from a HelmRelease's kubeConfig Secret), so helm reaches exactly the
// cluster and credential the kube client does, in-cluster included. Written 0600 into the action's home.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ClusterEndpoint } from "../../../kube/kubeconfig.js";
import { ReconcileFailure } from "../../kit/failure.js";

const b64 = (pem: string | undefined) => (pem ? Buffer.from(pem).toString("base64") : undefined);

/** A kubeconfig (JSON, which is YAML) with one context for `e`. */
export function kubeconfigFor(e: ClusterEndpoint): string {
  if (e.exec)
    throw new ReconcileFailure(
      "FactoryError",
      `cluster ${e.name} authenticates with an exec plugin, which helm is not given: use a token or client certificate`,
      { stalled: true },
    );
  const cluster = {
    server: e.server,
    "certificate-authority-data": b64(e.caPem),
    "insecure-skip-tls-verify": e.insecureSkipTlsVerify || undefined,
    "tls-server-name": e.tlsServerName,
    "proxy-url": e.proxyUrl,
  };
  const user = {
    "client-certificate-data": b64(e.certPem),
    "client-key-data": b64(e.keyPem),
    token: e.token,
    tokenFile: e.tokenFile,
  };
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "target", cluster }],
    users: [{ name: "target", user }],
    contexts: [{ name: "target", context: { cluster: "target", user: "target" } }],
    "current-context": "target",
  });
}

/** Writes the kubeconfig into `dir` readable by this user only; returns its path. */
export function writeKubeconfig(dir: string, e: ClusterEndpoint): string {
  const path = join(dir, "kubeconfig.yaml");
  writeFileSync(path, kubeconfigFor(e), { mode: 0o600 });
  return path;
}
