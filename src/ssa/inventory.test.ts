import { describe, expect, it } from "vitest";
import { entryFor } from "./changeset.js";
import { inventoryFromChangeSet, inventoryId, parseInventoryId, refFromEntry, staleEntries } from "./inventory.js";

describe("inventory ids in Flux's format", () => {
  it("formats namespaced, cluster-scoped and core-group objects", () => {
    expect(inventoryId({ namespace: "default", name: "podinfo", group: "apps", kind: "Deployment" })).toBe(
      "default_podinfo_apps_Deployment",
    );
    expect(inventoryId({ namespace: "default", name: "podinfo", group: "", kind: "Service" })).toBe(
      "default_podinfo__Service",
    );
    expect(inventoryId({ namespace: "", name: "test", group: "", kind: "Namespace" })).toBe("_test__Namespace");
  });

  it("encodes colons in RBAC names only", () => {
    expect(
      inventoryId({
        namespace: "",
        name: "system:controller:foo",
        group: "rbac.authorization.k8s.io",
        kind: "ClusterRole",
      }),
    ).toBe("_system__controller__foo_rbac.authorization.k8s.io_ClusterRole");
    expect(parseInventoryId("_system__controller__foo_rbac.authorization.k8s.io_ClusterRole").name).toBe(
      "system:controller:foo",
    );
  });

  it("parses ids back and refuses malformed ones", () => {
    expect(parseInventoryId("default_podinfo_apps_Deployment")).toEqual({
      namespace: "default",
      name: "podinfo",
      group: "apps",
      kind: "Deployment",
    });
    expect(() => parseInventoryId("nounderscores")).toThrow("unable to parse stored object metadata: nounderscores");
    expect(() => parseInventoryId("ns_a_b_c_apps_Deployment")).toThrow("too many fields within");
  });

  it("builds the inventory from a change set, keeping skipped and unchanged objects, with the version alone", () => {
    const inv = inventoryFromChangeSet([
      entryFor(
        { apiVersion: "autoscaling/v2", kind: "HorizontalPodAutoscaler", metadata: { name: "web", namespace: "apps" } },
        "skipped",
      ),
      entryFor({ apiVersion: "v1", kind: "Namespace", metadata: { name: "apps" } }, "unchanged"),
    ]);
    expect(inv.entries).toEqual([
      { id: "apps_web_autoscaling_HorizontalPodAutoscaler", v: "v2" },
      { id: "_apps__Namespace", v: "v1" },
    ]);
    expect(refFromEntry(inv.entries[0]!)).toEqual({
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: { name: "web", namespace: "apps" },
    });
  });

  it("finds stale entries by id, ignoring version changes", () => {
    const prev = {
      entries: [
        { id: "a_x_apps_Deployment", v: "v1" },
        { id: "a_y__ConfigMap", v: "v1" },
      ],
    };
    const next = { entries: [{ id: "a_x_apps_Deployment", v: "v2" }] };
    expect(staleEntries(prev, next)).toEqual([{ id: "a_y__ConfigMap", v: "v1" }]);
    expect(staleEntries(undefined, next)).toEqual([]);
  });
});
