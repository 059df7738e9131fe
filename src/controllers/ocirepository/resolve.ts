// Which artifact an OCIRepository names, as source-controller decides it: spec.ref.digest, else the
// highest tag matching spec.ref.semver (among the tags spec.ref.semverFilter lets through), else
// spec.ref.tag, else `latest`; and its revision — `<tag>@sha256:<manifest digest>`, or the digest alone
// for a digest ref. Failures carry Flux's reasons and message prefixes, plus what helps: the tags that
// exist when none matches.
import type { OCIRepository } from "../../api/source/oci-repository.js";
import type { RegistryClient } from "../../sources/oci/client.js";
import { InvalidOciUrlError, type OciReference, parseOciUrl } from "../../sources/oci/reference.js";
import { HELM_CHART_CONTENT_MEDIA_TYPE } from "../../sources/oci/flux-artifact.js";
import type { OciManifest } from "../../sources/oci/manifest.js";
import { chartTag, tagVersion } from "../../sources/oci/helm-chart.js";
import { newestFirst } from "../../sources/oci/tag-order.js";
import { maxSatisfying } from "../../sources/semver.js";
import { asFailure, ReconcileFailure } from "../kit/failure.js";

export const PULL_FAILED = "OCIArtifactPullFailed";
export const LAYER_FAILED = "OCIArtifactLayerOperationFailed";

export interface Resolved {
  repository: OciReference;
  /** The tag or digest asked of the registry. */
  reference: string;
  /** go-containerregistry's name of it, as Flux's messages print it: host/repo:tag or host/repo@sha256:… */
  name: string;
  revision: string;
  digest: string;
  manifest: OciManifest;
}

/** spec.url as a repository; Flux refuses a tag or digest in it (Stalled, URLInvalid). */
export function repositoryOf(obj: OCIRepository): OciReference {
  const url = obj.spec.url;
  const invalid = (why: string) =>
    new ReconcileFailure("URLInvalid", `URL validation failed for '${url}': ${why}`, { stalled: true });
  let ref: OciReference;
  try {
    ref = parseOciUrl(url);
  } catch (err) {
    if (err instanceof InvalidOciUrlError) throw invalid(err.message);
    throw err;
  }
  if (ref.tag) throw invalid(`URL must not contain a tag; remove ':${ref.tag}'`);
  if (ref.digest) throw invalid(`URL must not contain a digest; remove '@${ref.digest}' and set spec.ref.digest`);
  return ref;
}

/** The tag spec.ref.semver picks among `tags`; "no match found for semver" names the newest tags otherwise. */
export function pickSemverTag(all: string[], obj: OCIRepository): string {
  const { semver: range, semverFilter: filter } = obj.spec.ref!;
  // Helm writes a chart version's `+` as `_` in OCI tags (`+` is not allowed there); Flux reads it back.
  const chart = obj.spec.layerSelector?.mediaType === HELM_CHART_CONTENT_MEDIA_TYPE;
  let tags = all;
  if (filter) {
    let match: RegExp;
    try {
      match = new RegExp(filter);
    } catch (err) {
      throw new Error(`spec.ref.semverFilter '${filter}' is not a regular expression: ${(err as Error).message}`);
    }
    tags = tags.filter((t) => match.test(t));
  }
  const picked = maxSatisfying(chart ? tags.map(tagVersion) : tags, range!);
  if (picked) return chart ? chartTag(picked) : picked;
  const newest = newestFirst(tags).slice(0, 10);
  const matching = filter ? ` matching '${filter}'` : "";
  const exist = newest.length
    ? `; newest tags${matching}: ${newest.join(", ")}`
    : `; the repository has no tags${matching}`;
  throw new Error(`no match found for semver: ${range}${exist}`);
}

/** The reference to pull and its manifest (the manifest is small: reading it is how the digest is learnt). */
export async function resolve(client: RegistryClient, obj: OCIRepository, repo: OciReference): Promise<Resolved> {
  const base = `${repo.registry}/${repo.repository}`;
  const ref = obj.spec.ref ?? {};
  let tag: string | undefined;
  if (!ref.digest) {
    try {
      tag = ref.semver ? pickSemverTag(await client.listTags(repo.repository), obj) : ref.tag || "latest";
    } catch (err) {
      throw asFailure(
        err,
        (m) =>
          new ReconcileFailure(
            "ReadOperationFailed",
            `failed to determine the artifact tag for '${obj.spec.url}': ${m}`,
          ),
      );
    }
  }
  const reference = ref.digest ?? tag!;
  try {
    const { digest, manifest } = await client.getManifest(repo.repository, reference);
    const revision = ref.digest ? digest : `${tag}@${digest}`;
    const name = ref.digest ? `${base}@${ref.digest}` : `${base}:${tag}`;
    return { repository: repo, reference, name, revision, digest, manifest };
  } catch (err) {
    throw asFailure(err, (m) => new ReconcileFailure(PULL_FAILED, `failed to determine artifact digest: ${m}`));
  }
}
