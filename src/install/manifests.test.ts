import { describe, expect, it } from "vitest";
import { installManifests } from "./manifests.js";

const objects = installManifests({ namespace: "flux-system", image: "x", version: "1" });

describe("flotilla install's manifests", () => {
  it("carry every CRD the controllers watch, HelmRelease's included", () => {
    const crds = objects.filter((o) => o.kind === "CustomResourceDefinition").map((o) => o.metadata.name);
    expect(crds).toEqual([
      "gitrepositories.source.toolkit.fluxcd.io",
      "helmrepositories.source.toolkit.fluxcd.io",
      "helmcharts.source.toolkit.fluxcd.io",
      "ocirepositories.source.toolkit.fluxcd.io",
      "kustomizations.kustomize.toolkit.fluxcd.io",
      "helmreleases.helm.toolkit.fluxcd.io",
      "receivers.notification.toolkit.fluxcd.io",
      "alerts.notification.toolkit.fluxcd.io",
      "providers.notification.toolkit.fluxcd.io",
      "resourcesets.fluxcd.controlplane.io",
      "resourcesetinputproviders.fluxcd.controlplane.io",
      "fluxinstances.fluxcd.controlplane.io",
      "fluxreports.fluxcd.controlplane.io",
      "clusters.fleet.flotilla.dev",
      "fleetkustomizations.fleet.flotilla.dev",
      "fleethelmreleases.fleet.flotilla.dev",
    ]);
  });

  it("expose the webhook receiver as Flux does: Service webhook-receiver, port 80 to the controller's :9292", () => {
    const service = objects.find((o) => o.kind === "Service" && o.metadata.name === "webhook-receiver") as unknown as {
      spec: { ports: { port: number; targetPort: string }[] };
    };
    expect(service.spec.ports).toEqual([{ name: "http", port: 80, protocol: "TCP", targetPort: "http-webhook" }]);
    const deployment = objects.find((o) => o.kind === "Deployment") as unknown as {
      spec: {
        template: { spec: { containers: { args: string[]; ports: { name: string; containerPort: number }[] }[] } };
      };
    };
    const container = deployment.spec.template.spec.containers[0]!;
    expect(container.args).toContain("--receiver-addr=:9292");
    expect(container.ports).toContainEqual({ name: "http-webhook", containerPort: 9292, protocol: "TCP" });
  });

  it("expose the event endpoint as Flux does: Service notification-controller, port 80 to the controller's :9091, where Flux controllers post", () => {
    const service = objects.find(
      (o) => o.kind === "Service" && o.metadata.name === "notification-controller",
    ) as unknown as { metadata: { namespace: string }; spec: { ports: unknown[]; selector: unknown } };
    expect(service.metadata.namespace).toBe("flux-system");
    expect(service.spec.ports).toEqual([{ name: "http", port: 80, protocol: "TCP", targetPort: "http-events" }]);
    expect(service.spec.selector).toEqual({ app: "flotilla-controller" });
    const container = (
      objects.find((o) => o.kind === "Deployment") as unknown as {
        spec: { template: { spec: { containers: { args: string[]; ports: unknown[] }[] } } };
      }
    ).spec.template.spec.containers[0]!;
    expect(container.args).toContain("--events-addr=:9091");
    expect(container.ports).toContainEqual({ name: "http-events", containerPort: 9091, protocol: "TCP" });
  });

  it("bind the controller to cluster-admin, as Flux does: HelmReleases, and helm's release Secrets in any namespace, need no role of their own", () => {
    const binding = objects.find((o) => o.kind === "ClusterRoleBinding") as unknown as {
      roleRef: { name: string };
      subjects: { kind: string; name: string; namespace: string }[];
    };
    expect(binding.roleRef.name).toBe("cluster-admin");
    expect(binding.subjects).toEqual([
      { kind: "ServiceAccount", name: "flotilla-controller", namespace: "flux-system" },
    ]);
    expect(objects.filter((o) => ["Role", "ClusterRole", "RoleBinding"].includes(o.kind))).toEqual([]);
  });
});

describe("flotilla install's NetworkPolicies", () => {
  type Policy = {
    metadata: { name: string };
    spec: { podSelector: object; ingress: { from: object[]; ports?: { port: number }[] }[] };
  };
  const policies = objects.filter((o) => o.kind === "NetworkPolicy") as unknown as Policy[];
  const open = (port: number) =>
    policies.filter((p) =>
      p.spec.ingress.some(
        (rule) =>
          rule.from.some((f) => "namespaceSelector" in f) && (!rule.ports || rule.ports.some((x) => x.port === port)),
      ),
    );

  it("are Flux's three: allow-egress, allow-scraping, allow-webhooks", () => {
    expect(policies.map((p) => p.metadata.name)).toEqual(["allow-egress", "allow-scraping", "allow-webhooks"]);
  });

  it("let other namespaces reach the receiver and the metrics (Flux's port 8080), never the artifact server or the probes", () => {
    expect(open(9292).map((p) => p.metadata.name)).toEqual(["allow-webhooks"]);
    expect(open(8080).map((p) => p.metadata.name)).toEqual(["allow-scraping"]);
    expect(open(9090)).toEqual([]);
    expect(open(9440)).toEqual([]);
    // Within the namespace, everything (the controller's own replicas fetch each other's artifacts).
    expect(policies[0]!.spec.ingress).toEqual([{ from: [{ podSelector: {} }] }]);
  });

  it("are left out with networkPolicy false (flux's --network-policy=false)", () => {
    const without = installManifests({ namespace: "flux-system", image: "x", version: "1", networkPolicy: false });
    expect(without.filter((o) => o.kind === "NetworkPolicy")).toEqual([]);
    expect(without.length).toBe(objects.length - 3);
  });
});
