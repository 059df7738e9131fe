import { describe, expect, it } from "vitest";
import type { KubeObject } from "../api/meta/object.js";
import { defaultTakeoverManagers, takeoverPatch } from "./field-managers.js";

const live = (
  managedFields: NonNullable<KubeObject["metadata"]["managedFields"]>,
  annotations?: Record<string, string>,
): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "cm", namespace: "a", managedFields, annotations },
});

describe("Override field takeover", () => {
  const managers = defaultTakeoverManagers("flotilla");

  it("folds kubectl edits into our Apply entry", () => {
    const ops = takeoverPatch(
      live([
        { manager: "flotilla", operation: "Apply", fieldsV1: { "f:data": { "f:a": {} } } },
        { manager: "kubectl-edit", operation: "Update", fieldsV1: { "f:data": { "f:b": {} } } },
        { manager: "kube-controller-manager", operation: "Update", fieldsV1: { "f:metadata": {} } },
      ]),
      "flotilla",
      managers,
    );
    expect(ops).toEqual([
      {
        op: "replace",
        path: "/metadata/managedFields",
        value: [
          { manager: "kube-controller-manager", operation: "Update", fieldsV1: { "f:metadata": {} } },
          { manager: "flotilla", operation: "Apply", fieldsV1: { "f:data": { "f:a": {}, "f:b": {} } } },
        ],
      },
    ]);
  });

  it("renames the first matching entry when we own nothing yet, and removes kubectl's last-applied annotation", () => {
    const ops = takeoverPatch(
      live([{ manager: "kubectl-client-side-apply", operation: "Update", fieldsV1: { "f:data": {} } }], {
        "kubectl.kubernetes.io/last-applied-configuration": "{}",
      }),
      "flotilla",
      managers,
    );
    expect(ops).toEqual([
      { op: "remove", path: "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration" },
      {
        op: "replace",
        path: "/metadata/managedFields",
        value: [{ manager: "flotilla", operation: "Apply", fieldsV1: { "f:data": {} } }],
      },
    ]);
  });

  it("leaves other managers and subresource entries alone", () => {
    expect(
      takeoverPatch(
        live([
          { manager: "flotilla", operation: "Apply", fieldsV1: {} },
          { manager: "helm", operation: "Update", fieldsV1: {} },
          { manager: "kubectl", operation: "Update", subresource: "status", fieldsV1: {} },
        ]),
        "flotilla",
        managers,
      ),
    ).toEqual([]);
  });
});
