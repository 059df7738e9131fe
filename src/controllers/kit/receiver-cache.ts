// The Receivers the server answers for, by webhook path: the Receiver controller's own informer cache
// (a watch of Receivers) indexed by status.webhookPath, as Flux indexes its cache — so finding the
// Receiver of a request costs no API call, and a path appears or goes as soon as its status does.
import type { KubeObject } from "../../api/meta/object.js";
import type { Receiver } from "../../api/notification/receiver.js";
import type { Informer } from "../../kube/informer.js";

export const WEBHOOK_PATH_INDEX = "webhookPath";

/** The informer index: a Receiver's webhook path, once its status has one. */
export const webhookPathIndex = (o: KubeObject): string[] => {
  const path = (o as Receiver).status?.webhookPath;
  return path ? [path] : [];
};

export class ReceiverCache {
  private informer?: Informer;

  /** Called once the Receiver controller exists (its setup's connect). */
  attach(informer: Informer): void {
    this.informer = informer;
  }

  /** The Receiver whose status.webhookPath is exactly `path` (Flux compares the whole request URI). */
  byPath(path: string): Receiver | undefined {
    return this.informer?.byIndex(WEBHOOK_PATH_INDEX, path)[0] as Receiver | undefined;
  }
}
