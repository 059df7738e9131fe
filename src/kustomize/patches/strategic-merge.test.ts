// kyaml's list merge quirks, each checked against the real kustomize (the corpus pins them too;
// these name the rule that produces them).
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../resource.js";
import type { Json } from "../yaml/emit.js";
import { strategicMerge } from "./strategic-merge.js";

const deployment = (podSpec: JsonObject): JsonObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: { template: { spec: podSpec } },
});
const podSpec = (target: JsonObject, patch: JsonObject): Json => {
  const merged = strategicMerge(deployment(target), deployment(patch)) as JsonObject;
  return ((merged.spec as JsonObject).template as JsonObject).spec!;
};
const ports = (target: Json[], patch: Json[]): Json => {
  const spec = podSpec({ containers: [{ name: "c", ports: target }] }, { containers: [{ name: "c", ports: patch }] });
  return ((spec as JsonObject).containers as JsonObject[])[0]!.ports!;
};

describe("strategic merge of keyed lists, as kyaml does it", () => {
  it("merges ports by containerPort alone when no element names a protocol", () => {
    const merged = ports([{ containerPort: 80, name: "a" }], [{ containerPort: 80, name: "b" }, { containerPort: 81 }]);
    expect(merged).toEqual([{ containerPort: 80, name: "b" }, { containerPort: 81 }]);
  });

  it("lets a target port without protocol win over the patch's port that names one", () => {
    expect(ports([{ containerPort: 80, name: "a" }], [{ containerPort: 80, protocol: "TCP", name: "b" }])).toEqual([
      { containerPort: 80, name: "a" },
    ]);
  });

  it("with protocols, puts new patch ports first and the target's (merged) after, in target order", () => {
    const target = [
      { containerPort: 80, protocol: "TCP", name: "a" },
      { containerPort: 443, protocol: "TCP", name: "b" },
    ];
    const patch: Json[] = [
      { containerPort: 443, protocol: "TCP", name: "c" },
      { containerPort: 8443, protocol: "TCP" },
    ];
    expect(ports(target, patch)).toEqual([
      { containerPort: 8443, protocol: "TCP" },
      { containerPort: 80, protocol: "TCP", name: "a" },
      { containerPort: 443, protocol: "TCP", name: "c" },
    ]);
  });

  it("keeps TCP and UDP on the same port apart", () => {
    const target = [
      { containerPort: 53, protocol: "UDP", name: "dns" },
      { containerPort: 53, protocol: "TCP", name: "dns-tcp" },
    ];
    expect(ports(target, [{ containerPort: 53, protocol: "TCP", $patch: "delete" }])).toEqual([target[0]]);
  });

  it("collapses target elements with the same key to the last one, even when the patch does not touch them", () => {
    const env = [
      { name: "A", value: "1" },
      { name: "A", value: "2" },
    ];
    expect(podSpec({ containers: [{ name: "c", env }] }, { containers: [{ name: "c", image: "x" }] })).toEqual({
      containers: [{ name: "c", image: "x", env: [{ name: "A", value: "2" }] }],
    });
  });

  it("clears the named elements when a patch element lacks the merge key", () => {
    expect(podSpec({ containers: [{ name: "a" }, { name: "b" }] }, { containers: [{ image: "x" }] })).toEqual({
      containers: [],
    });
  });

  it("ignores $patch: replace on an element of a merged list", () => {
    const target = { volumes: [{ name: "v", emptyDir: {} }] };
    expect(podSpec(target, { volumes: [{ name: "v", $patch: "replace", secret: { secretName: "s" } }] })).toEqual(
      target,
    );
  });

  it("replaces lists kustomize's Kubernetes 1.21 schema does not know (schedulingGates)", () => {
    expect(podSpec({ schedulingGates: [{ name: "a" }] }, { schedulingGates: [{ name: "b" }] })).toEqual({
      schedulingGates: [{ name: "b" }],
    });
  });

  it("merges scalar lists with a merge strategy: the patch's values first, duplicates and nulls dropped", () => {
    const merged = strategicMerge(
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", finalizers: ["a", "b", "a"] } },
      { metadata: { finalizers: ["c", "b", null] } },
    );
    expect((merged!.metadata as JsonObject).finalizers).toEqual(["c", "b", "a"]);
  });
});
