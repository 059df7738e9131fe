// Helm charts in an OCI registry, as `helm push` writes them and source-controller's OCIChartRepository
// reads them: the chart is the repository `<url path>/<chart>`, its version a tag with '+' written '_'
// (OCI tags cannot hold '+'); a concrete version is pulled without listing tags, a range picks the
// highest matching tag; the chart is the layer of helm's media type. Used by the HelmChart controller
// and by `flotilla plan`, so a plan pulls exactly what the controller will.
import type { RegistryClient } from "./client.js";
import { OciError } from "./errors.js";
import { HELM_CHART_CONTENT_MEDIA_TYPE } from "./flux-artifact.js";
import { newestFirst } from "./tag-order.js";
import { maxSatisfying } from "../semver.js";

/** A version helm would push as one tag (not a range). */
export const CONCRETE_CHART_VERSION = /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
/** The tag helm pushes a chart version under. */
export const chartTag = (version: string) => version.replaceAll("+", "_");
/** The chart version a tag stands for. */
export const tagVersion = (tag: string) => tag.replaceAll("_", "+");

/** No tag of the chart's repository satisfies the version asked for; the message names the newest tags. */
export class NoMatchingChartTagError extends OciError {
  override name = "NoMatchingChartTagError";
}

/** The tag to pull for `wanted`: the version itself when concrete, else the highest tag the range matches. */
export async function chooseChartTag(client: RegistryClient, repository: string, wanted: string): Promise<string> {
  if (CONCRETE_CHART_VERSION.test(wanted)) return chartTag(wanted);
  const tags = await client.listTags(repository);
  if (tags.includes(wanted)) return wanted;
  const best = maxSatisfying(tags.map(tagVersion), wanted);
  if (best) return chartTag(best);
  const newest = newestFirst(tags).slice(0, 10);
  throw new NoMatchingChartTagError(
    `no tag of oci://${client.registry}/${repository} matches version '${wanted}'; ` +
      (newest.length ? `newest tags: ${newest.join(", ")}` : "it has no tags: push the chart with helm push"),
  );
}

/** The chart package at `tag`: helm's chart layer, read under `maxBytes` and checked against its digest. */
export async function pullChartLayer(
  client: RegistryClient,
  repository: string,
  tag: string,
  maxBytes: number,
): Promise<Buffer> {
  const { manifest } = await client.getManifest(repository, tag);
  const layer = manifest.layers.find((l) => l.mediaType === HELM_CHART_CONTENT_MEDIA_TYPE);
  if (!layer)
    throw new OciError(
      `oci://${client.registry}/${repository}:${tag} is not a Helm chart: it has no layer of media type ` +
        `${HELM_CHART_CONTENT_MEDIA_TYPE} (layers: ${manifest.layers.map((l) => l.mediaType).join(", ") || "none"})`,
    );
  return client.getBlob(repository, layer.digest, maxBytes);
}
