import { describe, expect, it } from "vitest";
import { SERVED_KINDS, USED_KINDS } from "./kinds.js";
import { apiPath, pathOf } from "./paths.js";

describe("API paths from the table of kinds", () => {
  it("puts core kinds under /api and grouped kinds under /apis, at their stored version", () => {
    expect(pathOf(USED_KINDS.Secret, "flux-system", "auth")).toBe("/api/v1/namespaces/flux-system/secrets/auth");
    expect(pathOf(SERVED_KINDS.Kustomization, "apps", "podinfo")).toBe(
      "/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/apps/kustomizations/podinfo",
    );
  });

  it("is the collection without a name, across namespaces without a namespace", () => {
    expect(pathOf(USED_KINDS.Event, "apps")).toBe("/api/v1/namespaces/apps/events");
    expect(pathOf(SERVED_KINDS.HelmRepository)).toBe("/apis/source.toolkit.fluxcd.io/v1/helmrepositories");
  });

  it("leaves the namespace out for cluster-scoped kinds and adds a subresource", () => {
    expect(pathOf(USED_KINDS.Node, "ignored", "kwok-node")).toBe("/api/v1/nodes/kwok-node");
    expect(pathOf(SERVED_KINDS.GitRepository, "ns", "repo", "status")).toBe(
      "/apis/source.toolkit.fluxcd.io/v1/namespaces/ns/gitrepositories/repo/status",
    );
  });

  it("escapes names and gives a group-version's discovery path", () => {
    expect(pathOf(USED_KINDS.ClusterRoleBinding, undefined, "kubeadm:cluster-admins")).toBe(
      "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/kubeadm%3Acluster-admins",
    );
    expect(apiPath({ group: "apps", version: "v1" })).toBe("/apis/apps/v1");
    expect(apiPath({ group: "", version: "v1" })).toBe("/api/v1");
  });

  it("gives every served kind exactly one stored version, Flux's (v2 for HelmRelease, v1beta3 for notification's Alert and Provider, else v1; the fleet's v1alpha1), among the served ones", () => {
    const storedOf = (kind: (typeof SERVED_KINDS)[keyof typeof SERVED_KINDS]) => {
      if (kind.kind === "HelmRelease") return "v2";
      if (kind.group === "notification.toolkit.fluxcd.io" && ["Alert", "Provider"].includes(kind.kind))
        return "v1beta3";
      return kind.group === "fleet.flotilla.dev" ? "v1alpha1" : "v1";
    };
    for (const kind of Object.values(SERVED_KINDS)) {
      const stored = storedOf(kind);
      expect(kind.versions.filter((v) => v.storage).map((v) => v.name)).toEqual([stored]);
      expect(kind.versions.every((v) => v.served)).toBe(true);
    }
  });
});
