import { describe, expect, it } from "vitest";
import type { KubeObject } from "../api/meta/object.js";
import { sortForApply, sortForDelete } from "./sort.js";
import { splitStages } from "./stages.js";

const o = (apiVersion: string, kind: string, name: string, namespace?: string): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name, namespace },
});
const ids = (objs: KubeObject[]) => objs.map((x) => `${x.kind}/${x.metadata.namespace ?? ""}/${x.metadata.name}`);

describe("apply order", () => {
  const set = [
    o("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "vw"),
    o("example.com/v1", "Widget", "w", "apps"),
    o("apps/v1", "Deployment", "web", "apps"),
    o("apps/v1", "DaemonSet", "agent", "apps"),
    o("v1", "ConfigMap", "b", "apps"),
    o("v1", "ConfigMap", "a", "apps"),
    o("v1", "Namespace", "apps"),
    o("apiextensions.k8s.io/v1", "CustomResourceDefinition", "widgets.example.com"),
    o("v1", "ServiceAccount", "sa", "apps"),
  ];

  it("puts CRDs and namespaces first, webhooks last, unlisted kinds (and custom resources) in between by group", () => {
    expect(ids(sortForApply(set))).toEqual([
      "CustomResourceDefinition//widgets.example.com",
      "Namespace//apps",
      "ServiceAccount/apps/sa",
      "ConfigMap/apps/a",
      "ConfigMap/apps/b",
      "Deployment/apps/web",
      "DaemonSet/apps/agent",
      "Widget/apps/w",
      "ValidatingWebhookConfiguration//vw",
    ]);
  });

  it("deletes in exactly the reverse order", () => {
    expect(ids(sortForDelete(set))).toEqual(ids(sortForApply(set)).reverse());
  });

  it("stages definitions, then *Class kinds, then the rest", () => {
    const stages = splitStages([
      ...set,
      o("storage.k8s.io/v1", "StorageClass", "fast"),
      o("rbac.authorization.k8s.io/v1", "ClusterRole", "r"),
    ]);
    expect(stages.definitions.map((x) => x.kind).sort()).toEqual([
      "ClusterRole",
      "CustomResourceDefinition",
      "Namespace",
    ]);
    expect(stages.classes.map((x) => x.kind)).toEqual(["StorageClass"]);
    expect(stages.resources).toHaveLength(7);
  });
});
