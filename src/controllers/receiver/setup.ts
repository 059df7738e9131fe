// The Receiver controller as the manager runs it: its informer, indexed by webhook path, is what the
// receiver server looks requests up in (receiver-cache.ts); a Secret labelled
// reconcile.fluxcd.io/watch=Enabled re-queues the Receivers using it at once, as Flux's
// --watch-configs-label-selector default does (others are read again at the next interval).
import { gvkOf, SERVED_KINDS, USED_KINDS } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Receiver } from "../../api/notification/receiver.js";
import type { ControllerDeps, ControllerSetup } from "../kit/setup.js";
import { crossNamespacePolicy } from "./cross-namespace.js";
import { WEBHOOK_PATH_INDEX, webhookPathIndex } from "../kit/receiver-cache.js";
import { ReceiverReconciler } from "./reconciler.js";

const SECRET_REF_INDEX = "secretRef";
export const WATCH_CONFIGS_SELECTOR = "reconcile.fluxcd.io/watch=Enabled";

const secretRefIndex = (o: KubeObject): string[] => {
  const name = (o as Receiver).spec?.secretRef?.name;
  return name ? [`${o.metadata.namespace}/${name}`] : [];
};

export const receiverController: ControllerSetup<Pick<ControllerDeps, "cluster" | "events" | "receivers" | "flags">> = {
  name: "receiver",
  kind: gvkOf(SERVED_KINDS.Receiver),
  indexes: { [WEBHOOK_PATH_INDEX]: webhookPathIndex, [SECRET_REF_INDEX]: secretRefIndex },
  watches: [
    {
      kind: gvkOf(USED_KINDS.Secret),
      labelSelector: WATCH_CONFIGS_SELECTOR,
      map: (secret, controller) =>
        controller.informer
          .byIndex(SECRET_REF_INDEX, `${secret.metadata.namespace}/${secret.metadata.name}`)
          .map((r) => `${r.metadata.namespace}/${r.metadata.name}`),
    },
  ],
  reconciler: ({ cluster, events, flags }) => new ReceiverReconciler(cluster, events, crossNamespacePolicy(flags)),
  connect: (controller, { receivers }) => receivers.attach(controller.informer),
};
