// The HelmRepository controller as the manager runs it.
import { SOURCE_GROUP } from "../../api/kinds.js";
import type { ControllerDeps, ControllerSetup } from "../kit/setup.js";
import { HelmRepositoryReconciler } from "./reconciler.js";

export const helmRepositoryController: ControllerSetup<Pick<ControllerDeps, "cluster" | "storage" | "events">> = {
  name: "helmrepository",
  kind: { group: SOURCE_GROUP, version: "v1", kind: "HelmRepository" },
  reconciler: ({ cluster, storage, events }) => new HelmRepositoryReconciler(cluster, storage, events),
};
