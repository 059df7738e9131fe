// flotilla's controllers as the operator's "components": the Flux controllers a FluxInstance asks for
// that flotilla's one process provides, each reported with the image that process runs — the
// flotilla-controller Deployment's (flotilla install) when there is one, else the process's own version
// (a controller run outside a Deployment, e.g. `flotilla controller` on a workstation).
import { USED_KINDS } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ComponentImage, FluxInstanceSpec } from "../../api/operator/fluxinstance.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { DEFAULT_COMPONENTS, PROVIDED_COMPONENTS } from "./mapping.js";

/** The Deployment `flotilla install` writes. */
export const CONTROLLER_DEPLOYMENT = "flotilla-controller";

export interface RunningImage {
  repository: string;
  tag: string;
  digest?: string;
  /** The Deployment it was read from, or undefined (a process outside a Deployment). */
  deployment?: KubeObject;
}

/** Splits registry/repository:tag@sha256:digest. */
export function splitImage(image: string): Omit<RunningImage, "deployment"> {
  const [ref, digest] = image.split("@") as [string, string | undefined];
  const colon = ref.lastIndexOf(":");
  const hasTag = colon > ref.lastIndexOf("/");
  return {
    repository: hasTag ? ref.slice(0, colon) : ref,
    tag: hasTag ? ref.slice(colon + 1) : "latest",
    ...(digest ? { digest } : {}),
  };
}

export async function runningImage(cluster: Cluster, namespace: string, version: string): Promise<RunningImage> {
  const d = await cluster.client
    .get<KubeObject>(pathOf(USED_KINDS.Deployment, namespace, CONTROLLER_DEPLOYMENT))
    .catch(() => undefined);
  const image = (d?.spec as { template?: { spec?: { containers?: { image?: string }[] } } } | undefined)?.template?.spec
    ?.containers?.[0]?.image;
  return image ? { ...splitImage(image), deployment: d } : { repository: "flotilla", tag: `v${version}` };
}

/** status.components: one entry per requested component flotilla provides, all the same image. */
export function componentImages(spec: FluxInstanceSpec, image: RunningImage): ComponentImage[] {
  const wanted = spec.components?.length ? spec.components : DEFAULT_COMPONENTS;
  return wanted
    .filter((c) => c in PROVIDED_COMPONENTS)
    .map((name) => ({
      name,
      repository: image.repository,
      tag: image.tag,
      ...(image.digest ? { digest: image.digest } : {}),
    }));
}
