// Kubeconfig loading: resolves a context into the endpoint and credentials one cluster connection needs.
// Exec plugins and insecure TLS are refused unless the caller allows them (Flux's
// --insecure-kubeconfig-exec / --insecure-kubeconfig-tls), because a kubeconfig from a Secret
// must not be able to run programs in the controller or switch off server verification. Nor may
// it name files (tokenFile, certificate and key paths): those are read from the controller's
// disk, so a tenant could have the controller's own service-account token sent to a server of its
// choice. Only a kubeconfig that is itself a file (the operator's) may point at other files.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { parseBoundedYaml } from "../util/yaml-nesting.js";
import type { ExecConfig } from "./credentials.js";
import { KubeconfigError } from "./errors.js";

export interface ClusterEndpoint {
  /** Human name used in errors and logs. */
  name: string;
  server: string;
  caPem?: string;
  certPem?: string;
  keyPem?: string;
  token?: string;
  /** Bearer token re-read from this file when it changes (rotated service-account tokens). */
  tokenFile?: string;
  /** Exec credential plugin; present only when the caller allowed exec. */
  exec?: ExecConfig;
  tlsServerName?: string;
  insecureSkipTlsVerify?: boolean;
  proxyUrl?: string;
}

export interface KubeconfigOptions {
  /** Context to use; defaults to current-context. */
  context?: string;
  allowExec?: boolean;
  allowInsecureTls?: boolean;
  /** Let the kubeconfig read token, certificate and key files; set for kubeconfig files. */
  allowFiles?: boolean;
}

interface RawKubeconfig {
  clusters?: { name: string; cluster: Record<string, unknown> }[];
  users?: { name: string; user: Record<string, unknown> }[];
  contexts?: { name: string; context: { cluster: string; user: string; namespace?: string } }[];
  "current-context"?: string;
}

/** Loads a kubeconfig file; relative certificate paths resolve against the file's directory. */
/** The operator's own kubeconfig (`--kubeconfig`, KUBECONFIG) is trusted as kubectl trusts it: exec plugins
 * (EKS, GKE, OIDC) and insecure-skip-tls-verify are the operator's choice. Only kubeconfigs read from
 * Secrets, which tenants can write, are held to the refusals above. */
export const OPERATOR_KUBECONFIG: KubeconfigOptions = { allowExec: true, allowInsecureTls: true, allowFiles: true };

export function endpointFromKubeconfigFile(path: string, options: KubeconfigOptions = {}): ClusterEndpoint {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new KubeconfigError(`cannot read kubeconfig ${path}: ${(err as Error).message}`, path, { cause: err });
  }
  return endpointFromKubeconfig(text, { allowFiles: true, ...options, source: path, baseDir: dirname(path) });
}

/** Parses kubeconfig YAML (e.g. the `admin.conf` key of a Secret); `source` names it in errors. */
export function endpointFromKubeconfig(
  text: string,
  options: KubeconfigOptions & { source: string; baseDir?: string },
): ClusterEndpoint {
  const { source } = options;
  const fail = (why: string): never => {
    throw new KubeconfigError(`kubeconfig ${source}: ${why}`, source);
  };
  let raw: RawKubeconfig;
  try {
    raw = parseBoundedYaml(text, "the kubeconfig") as RawKubeconfig;
  } catch (err) {
    return fail(`not valid YAML: ${(err as Error).message}`);
  }
  if (!raw || typeof raw !== "object") return fail("empty document");
  const contextName = options.context ?? raw["current-context"];
  if (!contextName) return fail("no current-context set and no context requested");
  const context = raw.contexts?.find((c) => c.name === contextName)?.context;
  if (!context) return fail(`context "${contextName}" not found`);
  const cluster = raw.clusters?.find((c) => c.name === context.cluster)?.cluster;
  if (!cluster) return fail(`cluster "${context.cluster}" of context "${contextName}" not found`);
  const user = raw.users?.find((u) => u.name === context.user)?.user ?? {};
  const server = cluster.server;
  if (typeof server !== "string" || !server) return fail(`cluster "${context.cluster}" has no server`);

  if (user.exec && !options.allowExec) {
    fail(
      `user "${context.user}" uses an exec credential plugin, which is refused; allow it explicitly (--insecure-kubeconfig-exec) only for trusted kubeconfigs`,
    );
  }
  if (user["auth-provider"]) fail(`user "${context.user}" uses an auth-provider, which is not supported`);
  const insecure = cluster["insecure-skip-tls-verify"] === true;
  if (insecure && !options.allowInsecureTls) {
    fail(
      `cluster "${context.cluster}" sets insecure-skip-tls-verify, which is refused; allow it explicitly (--insecure-kubeconfig-tls)`,
    );
  }

  const refuseFile = (field: string, owner: string) =>
    fail(
      `${owner} names a file (${field}), which is refused for a kubeconfig that is not itself a file: it would be read from the controller's disk; embed the value instead (${field === "tokenFile" ? "token" : `${field}-data`})`,
    );
  const material = (data: unknown, file: unknown, what: string, owner: string): string | undefined => {
    if (typeof data === "string" && data) return Buffer.from(data, "base64").toString("utf8");
    if (typeof file === "string" && file) {
      if (!options.allowFiles) refuseFile(what, owner);
      const full = isAbsolute(file) || !options.baseDir ? file : resolve(options.baseDir, file);
      try {
        return readFileSync(full, "utf8");
      } catch (err) {
        return fail(`cannot read ${what} file ${full}: ${(err as Error).message}`);
      }
    }
    return undefined;
  };
  const endpoint: ClusterEndpoint = { name: contextName, server };
  const clusterName = `cluster "${context.cluster}"`;
  const userName = `user "${context.user}"`;
  const ca = material(
    cluster["certificate-authority-data"],
    cluster["certificate-authority"],
    "certificate-authority",
    clusterName,
  );
  const cert = material(user["client-certificate-data"], user["client-certificate"], "client-certificate", userName);
  const key = material(user["client-key-data"], user["client-key"], "client-key", userName);
  const token = typeof user.token === "string" ? user.token : undefined;
  if (!token && typeof user.tokenFile === "string" && user.tokenFile) {
    if (!options.allowFiles) refuseFile("tokenFile", userName);
    endpoint.tokenFile =
      isAbsolute(user.tokenFile) || !options.baseDir ? user.tokenFile : resolve(options.baseDir, user.tokenFile);
  }
  if (user.exec) endpoint.exec = user.exec as ExecConfig;
  if (ca) endpoint.caPem = ca;
  if (cert) endpoint.certPem = cert;
  if (key) endpoint.keyPem = key;
  if (token) endpoint.token = token;
  if (typeof cluster["tls-server-name"] === "string") endpoint.tlsServerName = cluster["tls-server-name"];
  if (typeof cluster["proxy-url"] === "string") endpoint.proxyUrl = cluster["proxy-url"];
  if (insecure) endpoint.insecureSkipTlsVerify = true;
  if (Boolean(cert) !== Boolean(key))
    fail(`user "${context.user}" has a client certificate without a key, or a key without a certificate`);
  return endpoint;
}
