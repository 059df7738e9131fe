// A management Kustomization's render that changes an OCIRepository: the plan does not pull OCI
// artifacts, so it says so by name, listing the readers it does not plan, instead of planning them
// from the artifact the OCIRepository serves now; an OCIRepository rendered as it is live says nothing.
import { afterAll, describe, expect, it } from "vitest";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import {
  NS,
  REPO,
  checkout,
  clusterHolding,
  emptyState,
  planContext,
  removeScratch,
} from "./testing/fleet-fixtures.js";
import { KUSTOMIZATION_FIELD_MANAGER } from "../../controllers/kustomization/render-apply.js";
import { planFleet } from "./walk.js";

afterAll(removeScratch);

const ks = (name: string, sourceRef: Kustomization["spec"]["sourceRef"], path: string): Kustomization =>
  ({
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name, namespace: NS },
    spec: { interval: "5m", path, prune: true, sourceRef },
  }) as Kustomization;

const ociYaml = (tag: string) =>
  `apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: manifests\n  namespace: ${NS}\n` +
  `spec:\n  interval: 5m\n  url: oci://127.0.0.1:5000/manifests\n  ref:\n    tag: ${tag}\n`;

const liveOci = {
  apiVersion: "source.toolkit.fluxcd.io/v1",
  kind: "OCIRepository",
  metadata: {
    name: "manifests",
    namespace: NS,
    labels: { "kustomize.toolkit.fluxcd.io/name": "fleet-config", "kustomize.toolkit.fluxcd.io/namespace": NS },
    // As the Kustomization controller applied it: the fields the render sets, under its field manager.
    managedFields: [
      {
        manager: KUSTOMIZATION_FIELD_MANAGER,
        operation: "Apply",
        apiVersion: "source.toolkit.fluxcd.io/v1",
        fieldsV1: { "f:spec": { "f:interval": {}, "f:url": {}, "f:ref": { "f:tag": {} } } },
      },
    ],
  },
  spec: { interval: "5m", url: "oci://127.0.0.1:5000/manifests", ref: { tag: "v1" } },
} as KubeObject;

async function planWith(tag: string) {
  const state = emptyState();
  state.kustomizations = [
    ks("fleet-config", { kind: "GitRepository", name: "repo" }, "./fleet"),
    ks("apps", { kind: "OCIRepository", name: "manifests" }, "./"),
  ];
  state.ociRepositories = [liveOci];
  const { ctx } = planContext(
    state,
    { [REPO]: checkout({ "fleet/oci.yaml": ociYaml(tag) }) },
    { clusters: { management: await clusterHolding() } },
  );
  return planFleet(ctx);
}

describe("planFleet: an OCIRepository a render changes", () => {
  it("a new tag is said by name with the readers left unplanned, and how to plan them", async () => {
    const apps = await planWith("v2");
    expect(apps.map((a) => a.name)).toEqual(["fleet-config"]);
    expect(apps[0]!.notes).toEqual([
      `OCIRepository/${NS}/manifests changes (its spec): the plan does not pull OCI artifacts; its readers (Kustomization ${NS}/apps) are not planned: plan them with --source OCIRepository/${NS}/manifests=<a directory of the new artifact's files>`,
    ]);
  });

  it("the OCIRepository rendered as it is live: no note, no reader planned", async () => {
    const apps = await planWith("v1");
    expect(apps.map((a) => [a.name, a.notes])).toEqual([["fleet-config", []]]);
  });
});
