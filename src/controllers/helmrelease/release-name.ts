// Where a HelmRelease's Helm release lives and what it is called (helm-controller's GetReleaseName and
// internal/release/name.go ShortenName). flotilla stores the release in the target namespace: helm's
// CLI stores where it installs (`-n`), so storageNamespace cannot differ (refused in unsupported-fields).
import { createHash } from "node:crypto";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { FlotillaError } from "../../util/errors.js";

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

/** Helm's release name rule (pkg/chartutil ValidateReleaseName): a DNS-1123 subdomain of at most 53 characters. */
const HELM_RELEASE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export class InvalidReleaseName extends FlotillaError {
  override name = "InvalidReleaseName";
}

/**
 * Why helm must not be handed this HelmRelease's release name, or undefined when it may. Checked before
 * any helm process runs: a name helm refuses would fail every action, and one starting with '-' (such as
 * "--generate-name") would be read by helm's CLI as a flag rather than a name.
 */
export function releaseNameProblem(hr: HelmRelease): string | undefined {
  const name = releaseName(hr);
  if (name.length <= MAX_RELEASE_NAME && HELM_RELEASE_NAME.test(name)) return undefined;
  const from = hr.spec.releaseName
    ? `spec.releaseName ${JSON.stringify(hr.spec.releaseName)}`
    : `the release name ${JSON.stringify(name)} made of spec.targetNamespace and metadata.name`;
  return (
    `HelmRelease ${hr.metadata.namespace}/${hr.metadata.name}: ${from} is not a valid Helm release name: ` +
    `at most ${MAX_RELEASE_NAME} lowercase letters, digits, '-' and '.', starting and ending with a letter or digit; ` +
    `set spec.releaseName to such a name`
  );
}

/** releaseName, or InvalidReleaseName when helm must not be handed it. */
export function checkedReleaseName(hr: HelmRelease): string {
  const problem = releaseNameProblem(hr);
  if (problem) throw new InvalidReleaseName(problem);
  return releaseName(hr);
}
