// Asking a Receiver's resources to reconcile, as notification-controller does
// (receiver_handlers.go requestReconciliation): each spec.resources entry is one object by name, or
// every object of its kind matching matchLabels when the name is `*`, in the Receiver's namespace
// (another only when the operator allows it: cross-namespace.ts; the reconciler refuses such a spec
// first, this is checked again in case of a stale cache). Each accepted object gets
// reconcile.fluxcd.io/requestedAt = now through a merge patch; its own controller does the rest.
import { REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Receiver, ReceiverResource } from "../../api/notification/receiver.js";
import type { Cluster } from "../../kube/cluster.js";
import { collectionPath, objectPath } from "../../kube/discovery.js";
import { ApiError } from "../../kube/errors.js";
import { type CrossNamespacePolicy, crossNamespaceRefusal } from "./cross-namespace.js";
import { ReconcileRequestFailed } from "./errors.js";
import { requestedAtNow } from "./requested-at.js";
import type { ResourceFilter } from "./resource-filter.js";

/** Flux's defaultFluxAPIVersions: the kinds an entry may name without an apiVersion. */
export const DEFAULT_API_VERSIONS: Record<string, string> = {
  Bucket: "source.toolkit.fluxcd.io/v1",
  HelmChart: "source.toolkit.fluxcd.io/v1",
  HelmRepository: "source.toolkit.fluxcd.io/v1",
  GitRepository: "source.toolkit.fluxcd.io/v1",
  OCIRepository: "source.toolkit.fluxcd.io/v1",
  ImageRepository: "image.toolkit.fluxcd.io/v1",
  ArtifactGenerator: "source.extensions.fluxcd.io/v1beta1",
};

export interface Target {
  namespace: string;
  apiVersion: string;
}

/** Where an entry (spec.resources[index]) points, or why it may not (pure). */
export function targetOf(
  entry: ReceiverResource,
  receiverNamespace: string,
  policy: CrossNamespacePolicy,
  index = 0,
): Target {
  const refused = crossNamespaceRefusal(entry, index, receiverNamespace, policy);
  if (refused) throw new ReconcileRequestFailed(`cross-namespace references are not allowed: ${refused}`);
  const namespace = entry.namespace || receiverNamespace;
  const apiVersion = entry.apiVersion || DEFAULT_API_VERSIONS[entry.kind];
  if (!apiVersion) throw new ReconcileRequestFailed(`apiVersion must be specified for kind "${entry.kind}"`);
  const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
  // The server acts as the controller's identity: Flux's notification-controller may only patch the
  // toolkit's kinds (its RBAC), so an entry naming any other group (a Crossplane Bucket shares a kind
  // name with Flux's) is refused rather than annotated with rights the Receiver's author may not have.
  if (!RECEIVER_TARGET_GROUPS.some((g) => group === g || group.endsWith(`.${g}`)))
    throw new ReconcileRequestFailed(
      `apiVersion "${apiVersion}" of ${entry.kind} "${entry.name}" is not a Flux or flotilla kind: a Receiver may only ask the toolkit's objects (*.toolkit.fluxcd.io, *.extensions.fluxcd.io, fleet.flotilla.dev) to reconcile`,
    );
  return { namespace, apiVersion };
}

/** The API groups a Receiver may target (and their subgroups). */
const RECEIVER_TARGET_GROUPS = ["toolkit.fluxcd.io", "extensions.fluxcd.io", "fleet.flotilla.dev"];

/** matchLabels as a label selector (`k=v,k2=v2`). */
export const labelSelectorOf = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(",");

const apiMessage = (err: unknown) =>
  err instanceof ApiError && err.status.message ? err.status.message : (err as Error).message;

export interface RequestOptions {
  cluster: Cluster;
  crossNamespace: CrossNamespacePolicy;
  /** Logs what happened to one entry (no tokens, no payloads). */
  note(message: string, fields?: Record<string, unknown>): void;
}

/** Annotates the objects one entry names; returns `Kind/namespace/name` of each annotated. */
export async function requestReconciliation(
  o: RequestOptions,
  receiver: Receiver,
  entry: ReceiverResource,
  index: number,
  filter: ResourceFilter | undefined,
): Promise<string[]> {
  const { namespace, apiVersion } = targetOf(entry, receiver.metadata.namespace!, o.crossNamespace, index);
  let mapping;
  try {
    mapping = await o.cluster.mapping({ apiVersion, kind: entry.kind });
  } catch (err) {
    throw new ReconcileRequestFailed(
      `unable to read ${entry.kind} "${namespace}/${entry.name}" error: ${apiMessage(err)}`,
    );
  }
  if (!mapping.namespaced)
    throw new ReconcileRequestFailed(
      `${entry.kind} of ${apiVersion} is cluster-scoped: a Receiver only asks namespaced objects`,
    );
  let objects: KubeObject[];
  if (entry.name === "*") {
    if (!entry.matchLabels)
      throw new ReconcileRequestFailed("matchLabels field not set when using wildcard '*' as name");
    const selector = labelSelectorOf(entry.matchLabels);
    try {
      objects = (
        await o.cluster.client.listAll<KubeObject>(collectionPath(mapping, namespace), { labelSelector: selector })
      ).items.map((x) => ({ ...x, apiVersion, kind: entry.kind }));
    } catch (err) {
      throw new ReconcileRequestFailed(
        `failed listing resources in namespace "${namespace}" by matching labels "${selector}": ${apiMessage(err)}`,
      );
    }
    if (!objects.length) {
      // Flux logs this and answers 200: nothing matching is not the sender's fault.
      o.note(`no "${entry.kind}" resources found with matching labels "${selector}" in "${namespace}" namespace`);
      return [];
    }
  } else {
    try {
      objects = [await o.cluster.client.get<KubeObject>(objectPath(mapping, entry.name, namespace))];
    } catch (err) {
      throw new ReconcileRequestFailed(
        `unable to read ${entry.kind} "${namespace}/${entry.name}" error: ${apiMessage(err)}`,
      );
    }
  }
  const annotated: string[] = [];
  for (const obj of objects) {
    const id = `${entry.kind}/${obj.metadata.namespace}/${obj.metadata.name}`;
    if (filter && !filter(obj)) {
      o.note(`resource '${id}' NOT annotated because CEL expression returned false`);
      continue;
    }
    try {
      await o.cluster.client.patch(objectPath(mapping, obj.metadata.name, obj.metadata.namespace), "merge", {
        metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: requestedAtNow() } },
      });
    } catch (err) {
      throw new ReconcileRequestFailed(`failed to annotate resource: '${id}': ${apiMessage(err)}`);
    }
    o.note(`resource '${id}' annotated`);
    annotated.push(id);
  }
  return annotated;
}
