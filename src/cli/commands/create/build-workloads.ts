// The Kustomization and HelmRelease `create kustomization|helmrelease` build, as flux's
// create_kustomization.go and create_helmrelease.go fill kustomize-controller's and helm-controller's
// typed structs: `interval`, `path`, `prune` and `sourceRef` are printed even when false or empty.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { UsageError } from "../../errors.js";
import { metadata, type Meta } from "./build-sources.js";
import { dependsOn, parseKindNameNamespace, type Ref } from "./flux-refs.js";

const HEALTH_CHECK_KINDS = ["Deployment", "DaemonSet", "StatefulSet", "HelmRelease"];

export interface KustomizationArgs {
  source?: Ref;
  path: string;
  interval: string;
  prune: boolean;
  wait: boolean;
  healthChecks: string[];
  healthCheckTimeout: string;
  dependsOn: string[];
  serviceAccount?: string;
  decryptionProvider?: string;
  decryptionSecret?: string;
  targetNamespace?: string;
  kubeconfigSecretRef?: string;
  retryInterval?: string;
}

function healthCheck(w: string) {
  const kindObj = w.split("/");
  if (kindObj.length !== 2)
    throw new UsageError(
      `invalid health check '${w}' must be in the format 'kind/name.namespace' [${kindObj.join(" ")}]`,
    );
  const kind = kindObj[0]!;
  if (!HEALTH_CHECK_KINDS.includes(kind))
    throw new UsageError(
      `invalid health check kind '${kind}' can be HelmRelease, Deployment, DaemonSet or StatefulSet`,
    );
  const nameNs = kindObj[1]!.split(".");
  if (nameNs.length !== 2)
    throw new UsageError(`invalid health check '${w}' must be in the format 'kind/name.namespace'`);
  return {
    ...(kind === "HelmRelease" ? { apiVersion: "helm.toolkit.fluxcd.io/v2" } : {}),
    kind,
    name: nameNs[0]!,
    namespace: nameNs[1]!,
  };
}

export function kustomization(m: Meta, a: KustomizationArgs) {
  if (!a.path) throw new UsageError("path is required");
  if (!a.path.startsWith("./")) throw new UsageError("path must begin with ./");
  if (!a.source?.name) throw new UsageError("source is required");
  const spec: Record<string, unknown> = {
    interval: a.interval,
    path: a.path,
    prune: a.prune,
    sourceRef: {
      kind: a.source.kind,
      name: a.source.name,
      ...(a.source.namespace ? { namespace: a.source.namespace } : {}),
    },
    ...(a.targetNamespace ? { targetNamespace: a.targetNamespace } : {}),
  };
  if (a.dependsOn.length) spec.dependsOn = dependsOn(a.dependsOn);
  if (a.kubeconfigSecretRef) spec.kubeConfig = { secretRef: { name: a.kubeconfigSecretRef } };
  if (a.healthChecks.length && !a.wait) {
    spec.healthChecks = a.healthChecks.map(healthCheck);
    spec.timeout = a.healthCheckTimeout;
  }
  if (a.wait) Object.assign(spec, { wait: true, timeout: a.healthCheckTimeout });
  if (a.serviceAccount) spec.serviceAccountName = a.serviceAccount;
  if (a.decryptionProvider)
    spec.decryption = {
      provider: a.decryptionProvider,
      ...(a.decryptionSecret ? { secretRef: { name: a.decryptionSecret } } : {}),
    };
  if (a.retryInterval && a.retryInterval !== "0s") spec.retryInterval = a.retryInterval;
  return { apiVersion: "kustomize.toolkit.fluxcd.io/v1", kind: "Kustomization", metadata: metadata(m), spec };
}

export interface HelmReleaseArgs {
  releaseName?: string;
  source?: Ref;
  chart?: string;
  chartVersion?: string;
  chartRef?: string;
  interval: string;
  dependsOn: string[];
  targetNamespace?: string;
  storageNamespace?: string;
  createTargetNamespace: boolean;
  serviceAccount?: string;
  reconcileStrategy: string;
  chartInterval?: string;
  values: string[];
  valuesFrom: string[];
  crds?: string;
  kubeconfigSecretRef?: string;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** helm's transform.MergeMaps: later files win, maps merge deeply. */
function mergeMaps(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isMap(v) && isMap(out[k]) ? mergeMaps(out[k], v) : v;
  return out;
}

function valuesFromFiles(files: string[]): Record<string, unknown> {
  let merged: Record<string, unknown> = {};
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f, "utf8");
    } catch (err) {
      throw new UsageError(`reading values from ${f} failed: ${(err as Error).message}`);
    }
    let doc: unknown;
    try {
      doc = parse(text) ?? {};
    } catch (err) {
      throw new UsageError(`converting values to JSON from ${f} failed: ${(err as Error).message}`);
    }
    if (!isMap(doc)) throw new UsageError(`unmarshaling values from ${f} failed: the file is not a YAML map`);
    merged = mergeMaps(merged, doc);
  }
  return merged;
}

export function helmRelease(m: Meta, a: HelmReleaseArgs) {
  const storageNamespace = a.storageNamespace || a.targetNamespace;
  if (!a.chart && !a.chartRef) throw new UsageError("chart or chart-ref is required");
  if (a.chart && a.chartRef) throw new UsageError("cannot use --chart in combination with --chart-ref");
  if (!["Revision", "ChartVersion"].includes(a.reconcileStrategy))
    throw new UsageError(`'${a.reconcileStrategy}' is an invalid reconcile strategy(valid: Revision, ChartVersion)`);
  const spec: Record<string, unknown> = {
    ...(a.releaseName ? { releaseName: a.releaseName } : {}),
    interval: a.interval,
    ...(a.targetNamespace ? { targetNamespace: a.targetNamespace } : {}),
    ...(storageNamespace ? { storageNamespace } : {}),
  };
  if (a.dependsOn.length) spec.dependsOn = dependsOn(a.dependsOn);
  if (a.chart) {
    const src = a.source ?? { kind: "", name: "" };
    spec.chart = {
      spec: {
        chart: a.chart,
        ...(a.chartVersion ? { version: a.chartVersion } : {}),
        sourceRef: { kind: src.kind, name: src.name, ...(src.namespace ? { namespace: src.namespace } : {}) },
        ...(a.chartInterval && a.chartInterval !== "0s" ? { interval: a.chartInterval } : {}),
        reconcileStrategy: a.reconcileStrategy,
      },
    };
  } else {
    const { kind, name, namespace } = parseKindNameNamespace(a.chartRef!);
    if (kind !== "HelmChart" && kind !== "OCIRepository")
      throw new UsageError(`chart reference kind '${kind}' is not supported, must be one of: OCIRepository, HelmChart`);
    spec.chartRef = { kind, name, ...(namespace ? { namespace } : {}) };
  }
  if (a.kubeconfigSecretRef) spec.kubeConfig = { secretRef: { name: a.kubeconfigSecretRef } };
  const install: Record<string, unknown> = {};
  if (a.createTargetNamespace) install.createNamespace = true;
  if (a.serviceAccount) spec.serviceAccountName = a.serviceAccount;
  if (a.crds) {
    install.crds = "Create";
    spec.upgrade = { crds: a.crds };
  }
  if (Object.keys(install).length) spec.install = install;
  if (a.values.length) spec.values = valuesFromFiles(a.values);
  if (a.valuesFrom.length)
    spec.valuesFrom = a.valuesFrom.map((v) => {
      const parts = v.split("/");
      if (parts.length !== 2)
        throw new UsageError(`invalid Kubernetes object reference '${v}', must be in format <kind>/<name>`);
      const kind = ["Secret", "ConfigMap"].find((k) => k.toLowerCase() === parts[0]!.toLowerCase());
      if (!kind)
        throw new UsageError(`reference kind '${parts[0]}' is not supported, must be one of: Secret, ConfigMap`);
      return { kind, name: parts[1]! };
    });
  return { apiVersion: "helm.toolkit.fluxcd.io/v2", kind: "HelmRelease", metadata: metadata(m), spec };
}
