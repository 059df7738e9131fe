// In-cluster configuration: the pod's service-account token (re-read when rotated) and CA.
import { existsSync, readFileSync } from "node:fs";
import { KubeconfigError } from "./errors.js";
import type { ClusterEndpoint } from "./kubeconfig.js";

const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

export function isInCluster(env: NodeJS.ProcessEnv = process.env, dir = SERVICE_ACCOUNT_DIR): boolean {
  return Boolean(env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT && existsSync(`${dir}/token`));
}

export function inClusterEndpoint(env: NodeJS.ProcessEnv = process.env, dir = SERVICE_ACCOUNT_DIR): ClusterEndpoint {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) {
    throw new KubeconfigError(
      "not running in a cluster: KUBERNETES_SERVICE_HOST/PORT are not set; pass --kubeconfig",
      "in-cluster",
    );
  }
  let caPem: string;
  try {
    caPem = readFileSync(`${dir}/ca.crt`, "utf8");
  } catch (err) {
    throw new KubeconfigError(`in-cluster CA ${dir}/ca.crt unreadable: ${(err as Error).message}`, "in-cluster");
  }
  const hostPart = host.includes(":") ? `[${host}]` : host;
  return { name: "in-cluster", server: `https://${hostPart}:${port}`, caPem, tokenFile: `${dir}/token` };
}
