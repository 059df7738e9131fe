import { describe, expect, it } from "vitest";
import type { KubeObject, ManagedFieldsEntry } from "../../api/meta/object.js";
import {
  type Exemption,
  judgeDeleted,
  judgeModified,
  lastWriters,
  ownerLabelSelector,
  ownerOf,
  track,
} from "./trigger-rules.js";

const FM = "kustomize-controller";
// A kind whose objects opt out with an annotation `skip`, on edit only or always.
const exempt: Exemption = (o, deleted) => {
  const v = o.metadata.annotations?.skip;
  return v === "always" || (v === "edit" && !deleted) ? `skip: ${v}` : undefined;
};
const G = "kustomize.toolkit.fluxcd.io";
const ours = (time: string, fields: Record<string, unknown> = { "f:data": { "f:a": {} } }): ManagedFieldsEntry => ({
  manager: FM,
  operation: "Apply",
  apiVersion: "v1",
  time,
  fieldsType: "FieldsV1",
  fieldsV1: fields,
});
const other = (manager: string, time: string, extra: Partial<ManagedFieldsEntry> = {}): ManagedFieldsEntry => ({
  manager,
  operation: "Update",
  apiVersion: "v1",
  time,
  fieldsType: "FieldsV1",
  fieldsV1: { "f:data": { "f:a": {} } },
  ...extra,
});
const cm = (managedFields: ManagedFieldsEntry[], meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: {
    name: "app",
    namespace: "apps",
    labels: { [`${G}/name`]: "ks", [`${G}/namespace`]: "flux-system" },
    managedFields,
    ...meta,
  },
});

describe("drift trigger rules", () => {
  const applied = cm([ours("2026-01-01T00:00:00Z")]);
  const before = track(applied, FM);

  it("reads the owner from Flux's label pair, and selects on both labels", () => {
    expect(ownerOf(applied, G)).toEqual({ namespace: "flux-system", name: "ks" });
    expect(ownerOf(cm([], { labels: { [`${G}/name`]: "ks" } }), G)).toBeUndefined();
    expect(ownerLabelSelector(G)).toBe(`${G}/name,${G}/namespace`);
  });

  it("an edit by another field manager triggers, naming the editor", () => {
    const edited = cm([ours("2026-01-01T00:00:00Z", {}), other("kubectl-edit", "2026-01-01T00:05:00Z")]);
    expect(judgeModified(before, edited, FM, exempt)).toEqual({ trigger: true, why: "edited by kubectl-edit" });
  });

  it("a removal that leaves no entry of its own still triggers (our entry lost fields, its time did not move)", () => {
    const removed = cm([ours("2026-01-01T00:00:00Z", {})]);
    expect(judgeModified(before, removed, FM, exempt)).toEqual({ trigger: true, why: "fields removed" });
  });

  it("a label or annotation changed by hand triggers", () => {
    const relabelled = cm([ours("2026-01-01T00:00:00Z")], { annotations: { note: "x" } });
    expect(judgeModified(before, relabelled, FM, exempt).trigger).toBe(true);
  });

  it("our own re-apply does not trigger: our entry's time moved and it is the newest write", () => {
    const edited = cm([ours("2026-01-01T00:00:00Z", {}), other("kubectl-edit", "2026-01-01T00:05:00Z")]);
    const restored = cm([ours("2026-01-01T00:05:01Z")]);
    expect(judgeModified(track(edited, FM), restored, FM, exempt)).toEqual({ trigger: false, why: `applied by ${FM}` });
  });

  it("a status update does not trigger (status entries and resourceVersion are outside the digest)", () => {
    const deploy = cm([ours("2026-01-01T00:00:00Z")], { generation: 3 });
    const status = cm(
      [
        ours("2026-01-01T00:00:00Z"),
        other("kube-controller-manager", "2026-01-01T00:09:00Z", { subresource: "status" }),
      ],
      { generation: 3, resourceVersion: "99" },
    );
    expect(judgeModified(track(deploy, FM), status, FM, exempt)).toEqual({ trigger: false, why: "status only" });
  });

  it("an annotation a status write owns does not trigger (the deployment controller's revision)", () => {
    const created = cm([ours("2026-01-01T00:00:00Z")], { generation: 1 });
    const revision = { "deployment.kubernetes.io/revision": "1" };
    const annotated = cm(
      [
        ours("2026-01-01T00:00:00Z"),
        other("kube-controller-manager", "2026-01-01T00:00:00Z", {
          subresource: "status",
          fieldsV1: { "f:metadata": { "f:annotations": { ".": {}, "f:deployment.kubernetes.io/revision": {} } } },
        }),
      ],
      { generation: 1, annotations: revision },
    );
    expect(judgeModified(track(created, FM), annotated, FM, exempt)).toEqual({ trigger: false, why: "status only" });
    // The same annotation written outside status is a change.
    const byHand = cm([ours("2026-01-01T00:00:00Z")], { generation: 1, annotations: revision });
    expect(judgeModified(track(created, FM), byHand, FM, exempt).trigger).toBe(true);
  });

  it("a spec change by the same manager again is seen through generation", () => {
    const a = cm([ours("2026-01-01T00:00:00Z")], { generation: 1 });
    const b = cm([ours("2026-01-01T00:00:00Z")], { generation: 2 });
    expect(judgeModified(track(a, FM), b, FM, exempt).trigger).toBe(true);
  });

  it("objects the kind's opt-outs exempt do not trigger; an edit-only opt-out still counts a deletion", () => {
    const edited = (skip: string) => cm([other("kubectl-edit", "2026-01-01T00:05:00Z")], { annotations: { skip } });
    expect(judgeModified(before, edited("edit"), FM, exempt)).toEqual({ trigger: false, why: "skip: edit" });
    expect(judgeModified(before, edited("always"), FM, exempt).trigger).toBe(false);
    expect(judgeDeleted(applied, exempt)).toEqual({ trigger: true, why: "deleted" });
    expect(judgeDeleted(edited("edit"), exempt).trigger).toBe(true);
    expect(judgeDeleted(edited("always"), exempt)).toEqual({ trigger: false, why: "skip: always" });
  });

  it("an object being deleted, or not tracked, does not trigger on MODIFIED", () => {
    const going = cm([other("kubectl-edit", "2026-01-01T00:05:00Z")], { deletionTimestamp: "2026-01-01T00:05:00Z" });
    expect(judgeModified(before, going, FM, exempt).trigger).toBe(false);
    expect(judgeModified(undefined, cm([other("x", "2026-01-01T00:05:00Z")]), FM, exempt).trigger).toBe(false);
  });

  it("last writers are the newest non-status entries, ties included", () => {
    const o = cm([
      ours("2026-01-01T00:05:00Z"),
      other("hand", "2026-01-01T00:05:00Z"),
      other("kcm", "2026-01-01T00:06:00Z", { subresource: "status" }),
    ]);
    expect(lastWriters(o)).toEqual([FM, "hand"]);
  });
});
