import { describe, expect, it } from "vitest";
import type { KubeObject } from "../api/meta/object.js";
import { fieldSetCoveredBy, isProvablyUnchanged, isSubset } from "./unchanged.js";

const desired = (): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "a", labels: { app: "web" } },
  spec: {
    replicas: 1,
    template: {
      spec: { containers: [{ name: "c", image: "nginx", ports: [{ containerPort: 80, protocol: "TCP" }] }] },
    },
  },
});

const ownedFields = {
  "f:metadata": { "f:labels": { "f:app": {} } },
  "f:spec": {
    "f:replicas": {},
    "f:template": {
      "f:spec": {
        "f:containers": {
          'k:{"name":"c"}': {
            ".": {},
            "f:image": {},
            "f:name": {},
            "f:ports": { 'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {} } },
          },
        },
      },
    },
  },
};

const live = (mutate?: (o: KubeObject) => void, fields: Record<string, unknown> = ownedFields): KubeObject => {
  const o = desired();
  const c = (o.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers[0]!;
  c.imagePullPolicy = "Always"; // defaulted by the server
  o.metadata.resourceVersion = "7";
  o.metadata.managedFields = [
    { manager: "flotilla", operation: "Apply", apiVersion: "apps/v1", fieldsV1: fields },
    { manager: "kube-controller-manager", operation: "Update", subresource: "status", fieldsV1: {} },
  ];
  o.status = { replicas: 1 };
  mutate?.(o);
  return o;
};

describe("provably unchanged (no dry-run needed)", () => {
  it("holds when the live object only adds defaults and status to exactly what we own", () => {
    expect(isProvablyUnchanged(desired(), live(), "flotilla")).toBe(true);
  });
  it("fails when a value we set changed", () => {
    expect(
      isProvablyUnchanged(
        desired(),
        live((o) => ((o.spec as { replicas: number }).replicas = 3)),
        "flotilla",
      ),
    ).toBe(false);
  });
  it("fails when we own a field the manifest no longer sets (the apply would remove it)", () => {
    const fields = { ...ownedFields, "f:data": { "f:removed": {} } };
    expect(isProvablyUnchanged(desired(), live(undefined, fields), "flotilla")).toBe(false);
  });
  it("fails when another manager applied it, or we never did", () => {
    expect(isProvablyUnchanged(desired(), live(), "someone-else")).toBe(false);
  });
  it("compares arrays element by element with equal length, and null as absent", () => {
    expect(isSubset([{ a: 1 }], [{ a: 1, b: 2 }])).toBe(true);
    expect(isSubset([{ a: 1 }], [{ a: 1 }, { a: 2 }])).toBe(false);
    expect(isSubset({ x: null }, {})).toBe(true);
    expect(isSubset({ x: null }, { x: 1 })).toBe(false);
  });
  it("reads fieldsV1 list keys, set values and indexes", () => {
    expect(fieldSetCoveredBy({ "f:a": { 'k:{"n":"x"}': { "f:v": {} } } }, { a: [{ n: "x", v: 1 }] })).toBe(true);
    expect(fieldSetCoveredBy({ "f:a": { 'k:{"n":"y"}': {} } }, { a: [{ n: "x" }] })).toBe(false);
    expect(fieldSetCoveredBy({ "f:finalizers": { 'v:"a"': {} } }, { finalizers: ["a"] })).toBe(true);
    expect(fieldSetCoveredBy({ "f:a": { "i:1": {} } }, { a: [1] })).toBe(false);
    expect(fieldSetCoveredBy({ "x:weird": {} }, {})).toBe(false);
  });
});
