import { describe, expect, it } from "vitest";
import { SERVED_KINDS } from "../../api/kinds.js";
import type { DependencyReference } from "../../api/meta/object.js";
import { pathOf } from "../../api/paths.js";
import { InMemoryKube } from "../../kube/testing/in-memory-client.js";
import { findDependencyCycle } from "./dependency-cycle.js";

const KS = "kustomize.toolkit.fluxcd.io/v1";
const HR = "helm.toolkit.fluxcd.io/v2";

function object(apiVersion: string, kind: "Kustomization" | "HelmRelease", ns: string, name: string, deps: unknown[]) {
  return {
    apiVersion,
    kind,
    metadata: { name, namespace: ns },
    spec: { dependsOn: deps as DependencyReference[] },
  };
}

async function world(...objs: ReturnType<typeof object>[]) {
  const kube = new InMemoryKube();
  for (const o of objs) await kube.create(pathOf(SERVED_KINDS[o.kind], o.metadata.namespace), o);
  return kube;
}

describe("a dependsOn cycle across kinds", () => {
  it("is named in the order it is walked: Kustomization → HelmRelease → Kustomization", async () => {
    const a = object(KS, "Kustomization", "apps", "a", [{ apiVersion: HR, kind: "HelmRelease", name: "b" }]);
    const b = object(HR, "HelmRelease", "apps", "b", [{ apiVersion: KS, kind: "Kustomization", name: "a" }]);
    const kube = await world(a, b);
    expect(await findDependencyCycle(kube.client, a)).toEqual([
      "Kustomization/apps/a",
      "HelmRelease/apps/b",
      "Kustomization/apps/a",
    ]);
  });

  it("follows classic entries (no kind: the object's own kind) and namespaces", async () => {
    const a = object(HR, "HelmRelease", "apps", "a", [{ name: "b", namespace: "infra" }]);
    const b = object(HR, "HelmRelease", "infra", "b", [{ apiVersion: KS, kind: "Kustomization", name: "c" }]);
    const c = object(KS, "Kustomization", "infra", "c", [
      { apiVersion: HR, kind: "HelmRelease", name: "a", namespace: "apps" },
    ]);
    const kube = await world(a, b, c);
    expect(await findDependencyCycle(kube.client, a)).toEqual([
      "HelmRelease/apps/a",
      "HelmRelease/infra/b",
      "Kustomization/infra/c",
      "HelmRelease/apps/a",
    ]);
    // Under --no-cross-namespace-refs the walk never leaves the dependent's namespace.
    expect(await findDependencyCycle(kube.client, a, true)).toBeUndefined();
  });

  it("is not found where the chain ends, meets a missing object, or loops without the dependent", async () => {
    const a = object(KS, "Kustomization", "apps", "a", [
      { apiVersion: HR, kind: "HelmRelease", name: "missing" },
      { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", name: "x.example.com" },
      { name: "b" },
    ]);
    const b = object(KS, "Kustomization", "apps", "b", [{ name: "c" }]);
    const c = object(KS, "Kustomization", "apps", "c", [{ name: "b" }]);
    const kube = await world(a, b, c);
    expect(await findDependencyCycle(kube.client, a)).toBeUndefined();
  });

  it("a kind of the same name in another group is not followed", async () => {
    const a = object(KS, "Kustomization", "apps", "a", [
      { apiVersion: "example.com/v1", kind: "HelmRelease", name: "b" },
    ]);
    const b = object(HR, "HelmRelease", "apps", "b", [{ apiVersion: KS, kind: "Kustomization", name: "a" }]);
    const kube = await world(a, b);
    expect(await findDependencyCycle(kube.client, a)).toBeUndefined();
  });
});
