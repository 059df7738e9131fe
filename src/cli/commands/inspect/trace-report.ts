// flux trace's report (cmd/flux/trace.go templates), line for line: the object, then the Kustomization
// or HelmRelease that manages it, then its source(s) — each block after `---`, labels padded as flux
// pads them (17 columns for the Kustomization report, 16 for the HelmRelease one, 15 for a chart's
// GitRepository), times as Go prints a local time.
import { goTimeString } from "./go-time.js";

export interface Cond {
  type: string;
  status: string;
  message?: string;
  lastTransitionTime?: string;
}
export interface Obj {
  metadata: { name: string; namespace?: string };
  spec?: Record<string, unknown> & {
    url?: string;
    path?: string;
    targetNamespace?: string;
    chart?: string | unknown;
    version?: string;
    ref?: { tag?: string; semver?: string; branch?: string; digest?: string };
  };
  status?: {
    conditions?: Cond[];
    artifact?: { revision?: string; metadata?: Record<string, string> };
    lastAppliedRevision?: string;
    lastAttemptedRevision?: string;
  };
}

const ready = (o: Obj) => o.status?.conditions?.find((c) => c.type === "Ready");

function line(width: number, label: string, value: string): string {
  return `${`${label}:`.padEnd(width)}${value}`;
}

function statusLines(width: number, o: Obj, failedWording: boolean): string[] {
  const r = ready(o);
  if (!r) return [line(width, "Status", "Unknown")];
  const at = goTimeString(r.lastTransitionTime ?? "");
  const status =
    failedWording && r.status === "False" ? `Last reconciliation failed at ${at}` : `Last reconciled at ${at}`;
  return [line(width, "Status", status), line(width, "Message", r.message ?? "")];
}

function gitLines(width: number, git: Obj): string[] {
  const ref = git.spec?.ref;
  const out = [
    "---",
    line(width, "GitRepository", git.metadata.name),
    line(width, "Namespace", git.metadata.namespace ?? ""),
    line(width, "URL", git.spec?.url ?? ""),
  ];
  if (ref?.tag) out.push(line(width, "Tag", ref.tag));
  else if (ref?.semver) out.push(line(width, "Tag", ref.semver));
  else if (ref?.branch) out.push(line(width, "Branch", ref.branch));
  if (git.status?.artifact) out.push(line(width, "Revision", git.status.artifact.revision ?? ""));
  return [...out, ...statusLines(width, git, true)];
}

// flux ranges over a Go map, so the keys come sorted: Revision before Source.
const ORIGIN_LINES: [string, string][] = [
  ["Origin Revision: ", "org.opencontainers.image.revision"],
  ["Origin Source:   ", "org.opencontainers.image.source"],
];

/** An OCIRepository's block; the Kustomization report adds the artifact's origin annotations, the HelmRelease one does not. */
function ociLines(oci: Obj, withOrigin: boolean): string[] {
  const w = 17;
  const ref = oci.spec?.ref;
  const out = [
    "---",
    line(w, "OCIRepository", oci.metadata.name),
    line(w, "Namespace", oci.metadata.namespace ?? ""),
    line(w, "URL", oci.spec?.url ?? ""),
  ];
  if (ref?.tag) out.push(line(w, "Tag", ref.tag));
  else if (ref?.semver) out.push(line(w, "Tag", ref.semver));
  else if (ref?.digest) out.push(line(w, "Digest", ref.digest));
  const artifact = oci.status?.artifact;
  if (artifact) {
    out.push(line(w, "Revision", artifact.revision ?? ""));
    // Go's template prints a line per key, empty when the artifact lacks that annotation.
    if (withOrigin && artifact.metadata && Object.keys(artifact.metadata).length)
      for (const [label, key] of ORIGIN_LINES)
        out.push(artifact.metadata[key] ? `${label}${artifact.metadata[key]}` : "");
  }
  return [...out, ...statusLines(w, oci, true)];
}

function objectLines(width: number, objectName: string, namespace?: string): string[] {
  return [
    "",
    line(width, "Object", objectName),
    ...(namespace ? [line(width, "Namespace", namespace)] : []),
    line(width, "Status", "Managed by Flux"),
  ];
}

export function kustomizationReport(
  objectName: string,
  namespace: string | undefined,
  ks: Obj,
  source?: { git?: Obj; oci?: Obj },
): string {
  const w = 17;
  const out = objectLines(w, objectName, namespace);
  out.push("---", line(w, "Kustomization", ks.metadata.name), line(w, "Namespace", ks.metadata.namespace ?? ""));
  if (ks.spec?.targetNamespace) out.push(line(w, "Target", ks.spec.targetNamespace));
  out.push(line(w, "Path", ks.spec?.path ?? ""), line(w, "Revision", ks.status?.lastAppliedRevision ?? ""));
  out.push(...statusLines(w, ks, false));
  if (source?.git) out.push(...gitLines(w, source.git));
  if (source?.oci) out.push(...ociLines(source.oci, true));
  return `${out.join("\n")}\n`;
}

export function helmReleaseReport(
  objectName: string,
  namespace: string | undefined,
  hr: Obj,
  sources: { chart?: Obj; helmRepository?: Obj; git?: Obj; oci?: Obj },
): string {
  const w = 16;
  const out = objectLines(w, objectName, namespace);
  out.push("---", line(w, "HelmRelease", hr.metadata.name), line(w, "Namespace", hr.metadata.namespace ?? ""));
  if (hr.spec?.targetNamespace) out.push(line(w, "Target", hr.spec.targetNamespace));
  out.push(line(w, "Revision", hr.status?.lastAttemptedRevision ?? ""), ...statusLines(w, hr, false));
  const { chart, helmRepository, git, oci } = sources;
  if (chart) {
    out.push("---", line(w, "HelmChart", chart.metadata.name), line(w, "Namespace", chart.metadata.namespace ?? ""));
    out.push(line(w, "Chart", String(chart.spec?.chart ?? "")), line(w, "Version", chart.spec?.version ?? ""));
    if (chart.status?.artifact) out.push(line(w, "Revision", chart.status.artifact.revision ?? ""));
    out.push(...statusLines(w, chart, false));
  }
  if (helmRepository) {
    out.push("---", line(w, "HelmRepository", helmRepository.metadata.name));
    out.push(
      line(w, "Namespace", helmRepository.metadata.namespace ?? ""),
      line(w, "URL", helmRepository.spec?.url ?? ""),
    );
    if (helmRepository.status?.artifact) out.push(line(w, "Revision", helmRepository.status.artifact.revision ?? ""));
    out.push(...statusLines(w, helmRepository, false));
  }
  if (git) out.push(...gitLines(15, git));
  if (oci) out.push(...ociLines(oci, false));
  return `${out.join("\n")}\n`;
}
