import { describe, expect, it } from "vitest";
import type { KubeObject, ManagedFieldsEntry } from "../../api/meta/object.js";
import {
  type Exemption,
  judgeDeleted,
  judgeModified,
  lastWriters,
  type Own,
  ownerLabelSelector,
  ownerOf,
  track,
} from "./trigger-rules.js";

const FM = "kustomize-controller";
const OWN: Own = { manager: FM, operation: "Apply" };
// A kind whose objects opt out with an annotation `skip`, on edit only or always.
const exempt: Exemption = (o, deleted) => {
  const v = o.metadata.annotations?.skip;
  return v === "always" || (v === "edit" && !deleted) ? `skip: ${v}` : undefined;
};
const G = "kustomize.toolkit.fluxcd.io";
const T0 = "2026-01-01T00:00:00Z";
const T1 = "2026-01-01T00:05:00Z";
const DATA_A = { "f:data": { "f:a": {} } };
const ours = (time: string, fields: Record<string, unknown> = DATA_A): ManagedFieldsEntry => ({
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
  fieldsV1: DATA_A,
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
  const applied = cm([ours(T0)]);
  const before = track(applied, OWN);

  it("reads the owner from Flux's label pair, and selects on both labels", () => {
    expect(ownerOf(applied, G)).toEqual({ namespace: "flux-system", name: "ks" });
    expect(ownerOf(cm([], { labels: { [`${G}/name`]: "ks" } }), G)).toBeUndefined();
    expect(ownerLabelSelector(G)).toBe(`${G}/name,${G}/namespace`);
  });

  it("an edit by another field manager of a field we own triggers, naming the editor", () => {
    const edited = cm([ours(T0, {}), other("kubectl-edit", T1)]);
    expect(judgeModified(before, edited, OWN, exempt)).toEqual({
      trigger: true,
      why: "edited by kubectl-edit",
      by: "kubectl-edit",
    });
  });

  it("a removal of a field we own triggers (our entry lost it, its time did not move)", () => {
    const removed = cm([ours(T0, {})]);
    expect(judgeModified(before, removed, OWN, exempt)).toEqual({ trigger: true, why: "fields removed" });
  });

  it("our entry taken over entirely (gone) triggers", () => {
    const takenOver = cm([other("kubectl", T1, { operation: "Apply" })]);
    expect(judgeModified(before, takenOver, OWN, exempt)).toMatchObject({ trigger: true, by: "kubectl" });
  });

  it("a third party's annotation or label does not trigger: our entry keeps its fields", () => {
    const annotated = cm(
      [
        ours(T0),
        other("kubectl-annotate", T1, {
          fieldsV1: { "f:metadata": { "f:annotations": { "f:example.com/note": {} } } },
        }),
      ],
      { annotations: { "example.com/note": "x" }, generation: 1 },
    );
    expect(judgeModified(before, annotated, OWN, exempt)).toEqual({ trigger: false, why: "our fields unchanged" });
  });

  it("an HPA scaling through /scale does not trigger when the manifest leaves replicas alone", () => {
    const deploy = (entries: ManagedFieldsEntry[], generation: number) => cm(entries, { generation });
    const spec = { "f:spec": { "f:template": {} } };
    const scaled = deploy(
      [
        ours(T0, spec),
        other("kube-controller-manager", T1, { subresource: "scale", fieldsV1: { "f:spec": { "f:replicas": {} } } }),
      ],
      2,
    );
    expect(judgeModified(track(deploy([ours(T0, spec)], 1), OWN), scaled, OWN, exempt).trigger).toBe(false);
  });

  it("an HPA scaling replicas the manifest sets triggers (a re-apply reverts it), naming the autoscaler", () => {
    const spec = { "f:spec": { "f:replicas": {}, "f:template": {} } };
    const scaled = cm([
      ours(T0, { "f:spec": { "f:template": {} } }),
      other("kube-controller-manager", T1, { subresource: "scale", fieldsV1: { "f:spec": { "f:replicas": {} } } }),
    ]);
    expect(judgeModified(track(cm([ours(T0, spec)]), OWN), scaled, OWN, exempt)).toMatchObject({
      trigger: true,
      by: "kube-controller-manager",
    });
  });

  it("another manager setting a field we do not set does not trigger, though generation moves", () => {
    const a = cm([ours(T0)], { generation: 1 });
    const b = cm([ours(T0), other("operator", T1, { fieldsV1: { "f:data": { "f:b": {} } } })], { generation: 2 });
    expect(judgeModified(track(a, OWN), b, OWN, exempt).trigger).toBe(false);
  });

  it("our own re-apply does not trigger: our entry's time moved and it is the newest write", () => {
    const edited = cm([ours(T0, {}), other("kubectl-edit", T1)]);
    const restored = cm([ours("2026-01-01T00:05:01Z")]);
    expect(judgeModified(track(edited, OWN), restored, OWN, exempt)).toEqual({
      trigger: false,
      why: `applied by ${FM}`,
    });
  });

  it("our first apply onto an object we owned nothing of does not trigger", () => {
    const adopted = cm([other("kubectl-create", T0)]);
    expect(judgeModified(track(adopted, OWN), cm([ours(T1)]), OWN, exempt).trigger).toBe(false);
  });

  it("a status update does not trigger", () => {
    const status = cm([ours(T0), other("kube-controller-manager", T1, { subresource: "status" })], {
      resourceVersion: "99",
    });
    expect(judgeModified(before, status, OWN, exempt).trigger).toBe(false);
  });

  it("the digest is our entry's field set whatever the order of its keys", () => {
    const a = cm([ours(T0, { "f:data": { "f:a": {}, "f:b": {} }, "f:metadata": {} })]);
    const b = cm([ours(T0, { "f:metadata": {}, "f:data": { "f:b": {}, "f:a": {} } })]);
    expect(track(a, OWN)).toEqual(track(b, OWN));
    expect(track(a, OWN).own).toHaveLength(22);
    expect(track(cm([other("x", T0)]), OWN)).toEqual({});
  });

  it("ours is the manager with its operation: an Update entry of the Kustomization's manager is not", () => {
    const update = cm([ours(T0), { ...ours(T0), operation: "Update", fieldsV1: { "f:data": { "f:z": {} } } }]);
    expect(track(update, OWN)).toEqual(track(cm([ours(T0)]), OWN));
    // helm writes as an Apply or an Update: any operation of its manager is its own.
    const HELM: Own = { manager: "helm" };
    const helm = (fields: object) => cm([{ ...other("helm", T0), fieldsV1: fields as Record<string, unknown> }]);
    const edited = cm([{ ...other("helm", T0), fieldsV1: {} }, other("kubectl-edit", T1)]);
    expect(judgeModified(track(helm(DATA_A), HELM), edited, HELM, exempt).trigger).toBe(true);
  });

  it("objects the kind's opt-outs exempt do not trigger; an edit-only opt-out still counts a deletion", () => {
    const edited = (skip: string) => cm([other("kubectl-edit", T1)], { annotations: { skip } });
    expect(judgeModified(before, edited("edit"), OWN, exempt)).toEqual({ trigger: false, why: "skip: edit" });
    expect(judgeModified(before, edited("always"), OWN, exempt).trigger).toBe(false);
    expect(judgeDeleted(applied, exempt)).toEqual({ trigger: true, why: "deleted" });
    expect(judgeDeleted(edited("edit"), exempt).trigger).toBe(true);
    expect(judgeDeleted(edited("always"), exempt)).toEqual({ trigger: false, why: "skip: always" });
  });

  it("an object being deleted, or not tracked, does not trigger on MODIFIED", () => {
    const going = cm([other("kubectl-edit", T1)], { deletionTimestamp: T1 });
    expect(judgeModified(before, going, OWN, exempt).trigger).toBe(false);
    expect(judgeModified(undefined, cm([other("x", T1)]), OWN, exempt).trigger).toBe(false);
  });

  it("last writers are the newest non-status entries, ties included", () => {
    const o = cm([ours(T1), other("hand", T1), other("kcm", "2026-01-01T00:06:00Z", { subresource: "status" })]);
    expect(lastWriters(o)).toEqual([FM, "hand"]);
  });
});
