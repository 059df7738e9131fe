// What one apply or prune did, object by object, in Flux's words.
import { objectId, parseApiVersion } from "../kube/object.js";
import type { KubeObject } from "../api/meta/object.js";

export type Action = "created" | "configured" | "unchanged" | "deleted" | "skipped" | "unknown";

export interface ChangeSetEntry {
  /** `Kind/namespace/name` (or `Kind/name`). */
  subject: string;
  action: Action;
  group: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
}

export function entryFor(obj: Pick<KubeObject, "apiVersion" | "kind" | "metadata">, action: Action): ChangeSetEntry {
  const { group, version } = parseApiVersion(obj.apiVersion);
  return {
    subject: objectId(obj),
    action,
    group,
    version,
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? "",
    name: obj.metadata.name,
  };
}

/** `Deployment/apps/web configured`, one line per entry. */
export const formatChangeSet = (entries: ChangeSetEntry[]): string =>
  entries.map((e) => `${e.subject} ${e.action}`).join("\n");

export const hasChanged = (e: ChangeSetEntry): boolean => e.action !== "unchanged" && e.action !== "skipped";
