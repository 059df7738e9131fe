// The source objects `create source git|helm|chart` builds, field for field as flux's create_source_*.go
// fills the typed structs — so fields with omitempty vanish when unset and `interval` never does.
import { UsageError } from "../../errors.js";
import type { Ref } from "./flux-refs.js";

export interface Meta {
  name: string;
  namespace: string;
  labels?: Record<string, string>;
}

export const metadata = (m: Meta) => ({
  name: m.name,
  namespace: m.namespace,
  ...(m.labels && Object.keys(m.labels).length ? { labels: m.labels } : {}),
});

const GIT_PROVIDERS = ["generic", "github", "aws", "azure"];

export interface GitSourceArgs {
  url: string;
  interval: string;
  branch?: string;
  tag?: string;
  tagSemver?: string;
  refName?: string;
  commit?: string;
  secretRef?: string;
  proxySecretRef?: string;
  provider?: string;
  recurseSubmodules?: boolean;
  ignorePaths: string[];
  sparseCheckoutPaths: string[];
  fetchTimeout?: string;
  caFile?: string;
}

/** Validation flux does before it builds a GitRepository (same order, same words). */
export function checkGitSource(a: GitSourceArgs): URL {
  if (!a.url) throw new UsageError("url is required");
  let u: URL;
  try {
    u = new URL(a.url);
  } catch {
    throw new UsageError(`git URL parse failed: ${a.url} is not a URL`);
  }
  const scheme = u.protocol.replace(/:$/, "");
  if (!["ssh", "http", "https"].includes(scheme))
    throw new UsageError(`git URL scheme '${scheme}' not supported, can be: ssh, http and https`);
  if (!a.branch && !a.tag && !a.tagSemver && !a.commit && !a.refName)
    throw new UsageError(
      "a Git ref is required, use one of the following: --branch, --tag, --commit, --ref-name or --tag-semver",
    );
  if (a.caFile && scheme === "ssh") throw new UsageError("specifying a CA file is not supported for Git over SSH");
  return u;
}

export function providerFlag(value: string): string {
  if (value === "")
    throw new UsageError(
      'invalid argument "" for "--provider" flag: no source Git provider given, please specify the Git provider name',
    );
  if (!GIT_PROVIDERS.includes(value))
    throw new UsageError(
      `invalid argument "${value}" for "--provider" flag: source Git provider '${value}' is not supported, must be one of: ${GIT_PROVIDERS.join("|")}`,
    );
  return value;
}

export function gitRepository(m: Meta, a: GitSourceArgs) {
  const ref: Record<string, string> = {};
  if (a.commit) Object.assign(ref, { commit: a.commit }, a.branch ? { branch: a.branch } : {});
  else if (a.refName) ref.name = a.refName;
  else if (a.tagSemver) ref.semver = a.tagSemver;
  else if (a.tag) ref.tag = a.tag;
  else if (a.branch) ref.branch = a.branch;
  return {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: metadata(m),
    spec: {
      url: a.url,
      interval: a.interval,
      ...(a.recurseSubmodules ? { recurseSubmodules: true } : {}),
      ref,
      ...(a.ignorePaths.length ? { ignore: a.ignorePaths.join("\n") } : {}),
      ...(a.sparseCheckoutPaths.length ? { sparseCheckout: a.sparseCheckoutPaths } : {}),
      ...(a.fetchTimeout ? { timeout: a.fetchTimeout } : {}),
      ...(a.secretRef ? { secretRef: { name: a.secretRef } } : {}),
      ...(a.proxySecretRef ? { proxySecretRef: { name: a.proxySecretRef } } : {}),
      ...(a.provider ? { provider: a.provider } : {}),
    },
  };
}

export interface HelmSourceArgs {
  url: string;
  interval: string;
  secretRef?: string;
  passCredentials?: boolean;
  ociProvider?: string;
  fetchTimeout?: string;
}

export function helmRepository(m: Meta, a: HelmSourceArgs) {
  if (!a.url) throw new UsageError("url is required");
  let u: URL;
  try {
    u = new URL(a.url);
  } catch {
    throw new UsageError(`url parse failed: ${a.url} is not a URL`);
  }
  const scheme = u.protocol.replace(/:$/, "");
  if (!["http", "https", "oci"].includes(scheme))
    throw new UsageError(`url scheme '${scheme}' not supported, can be: http, https and oci`);
  if (!u.host) throw new UsageError("url host is required");
  const oci = scheme === "oci";
  return {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "HelmRepository",
    metadata: metadata(m),
    spec: {
      url: a.url,
      interval: a.interval,
      ...(oci ? { type: "oci", ...(a.ociProvider ? { provider: a.ociProvider } : {}) } : {}),
      ...(a.fetchTimeout ? { timeout: a.fetchTimeout } : {}),
      ...(a.secretRef
        ? { secretRef: { name: a.secretRef }, ...(a.passCredentials ? { passCredentials: true } : {}) }
        : {}),
    },
  };
}

/** The --verify-* flags of `create source chart` and `create source oci`. */
export interface VerifyArgs {
  verifyProvider?: string;
  verifySecretRef?: string;
  verifyIssuer?: string;
  verifySubject?: string;
}

export interface ChartSourceArgs extends VerifyArgs {
  source?: Ref;
  chart?: string;
  chartVersion?: string;
  interval: string;
  reconcileStrategy: string;
}

/** spec.verify as both flux commands build it; a --verify-* flag without --verify-provider refused in flux's words. */
export function verificationOf(a: VerifyArgs): Record<string, unknown> | undefined {
  if (a.verifyProvider) {
    const verify: Record<string, unknown> = { provider: a.verifyProvider };
    if (a.verifySecretRef) verify.secretRef = { name: a.verifySecretRef };
    if (a.verifyIssuer || a.verifySubject)
      verify.matchOIDCIdentity = [{ issuer: a.verifyIssuer ?? "", subject: a.verifySubject ?? "" }];
    return verify;
  }
  if (a.verifySecretRef) throw new UsageError("a verification provider must be specified when a secret is specified");
  if (a.verifyIssuer || a.verifySubject)
    throw new UsageError("a verification provider must be specified when OIDC issuer/subject is specified");
  return undefined;
}

export function helmChart(m: Meta, a: ChartSourceArgs) {
  if (!a.source) throw new UsageError("chart source is required");
  if (!a.chart) throw new UsageError("chart name or path is required");
  const verify = verificationOf(a);
  return {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "HelmChart",
    metadata: metadata(m),
    spec: {
      chart: a.chart,
      ...(a.chartVersion ? { version: a.chartVersion } : {}),
      interval: a.interval,
      reconcileStrategy: a.reconcileStrategy,
      sourceRef: { kind: a.source.kind, name: a.source.name },
      ...(verify ? { verify } : {}),
    },
  };
}
