// Where a HelmRelease's Helm release lives and what it is called (helm-controller's GetReleaseName and
// internal/release/name.go ShortenName). flotilla stores the release in the target namespace: helm's
// CLI stores where it installs (`-n`), so storageNamespace cannot differ (refused in unsupported-fields).
import { createHash } from "node:crypto";
import type { HelmRelease } from "../../api/helm/helmrelease.js";

const MAX_RELEASE_NAME = 53;

/** helm-controller's ShortenName: over 53 characters → first 40 + "-" + first 12 hex of sha256(name). */
export function shortenName(name: string): string {
  if (name.length <= MAX_RELEASE_NAME) return name;
  const sum = createHash("sha256").update(name).digest("hex");
  return `${name.slice(0, 40)}-${sum.slice(0, 12)}`;
}

/** spec.releaseName, else `[<targetNamespace>-]<name>`, shortened. */
export function releaseName(hr: HelmRelease): string {
  if (hr.spec.releaseName) return shortenName(hr.spec.releaseName);
  const target = hr.spec.targetNamespace;
  return shortenName(target ? `${target}-${hr.metadata.name}` : hr.metadata.name!);
}

/** The namespace the release is installed into, and stored in. */
export function targetNamespace(hr: HelmRelease): string {
  return hr.spec.targetNamespace || hr.metadata.namespace!;
}
