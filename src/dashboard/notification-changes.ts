// Open pages hear of a new notification as they hear of a status change: a metadata-only watch on the
// Events the dispatcher labels with the notified object's UID (delivery-record.ts) reports each new one
// as a change of kind "Notification", so an app page or the Providers page re-reads at once. A delivery
// lands after the status change that caused it, so without this the page would stay one notification
// behind. An identity that may not list Events gets no watch (and no retry loop), only the pages.
import { USED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import { NOTIFIED_UID_LABEL } from "../controllers/notification/delivery-record.js";
import type { Cluster } from "../kube/cluster.js";
import { Watcher } from "../kube/watch.js";
import type { ChangeSource } from "./change-stream.js";

export class NotificationChanges implements ChangeSource {
  private readonly listeners: ((c: { kind: string }) => void)[] = [];
  private watcher?: Watcher;

  static async start(cluster: Cluster, namespace?: string): Promise<NotificationChanges> {
    const changes = new NotificationChanges();
    const labelSelector = NOTIFIED_UID_LABEL;
    const listable = await cluster.client.get(pathOf(USED_KINDS.Event, namespace), { limit: 1, labelSelector }).then(
      () => true,
      () => false,
    );
    if (!listable) return changes;
    changes.watcher = new Watcher(
      cluster,
      { gvk: { group: "", version: "v1", kind: "Event" }, namespace, labelSelector, metadataOnly: true },
      {
        onSync: () => undefined,
        onEvent: (e) => {
          if (e.type === "ADDED") for (const l of changes.listeners) l({ kind: "Notification" });
        },
      },
    );
    changes.watcher.start();
    return changes;
  }

  onChange(fn: (c: { kind: string }) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  async stop(): Promise<void> {
    await this.watcher?.stop();
  }
}

/** Both sources as one, for the change stream. */
export const bothSources = (a: ChangeSource, b: ChangeSource): ChangeSource => ({
  onChange(fn) {
    const offA = a.onChange(fn);
    const offB = b.onChange(fn);
    return () => (offA(), offB());
  },
});
