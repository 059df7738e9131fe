import { describe, expect, it } from "vitest";
import { installManifests } from "./manifests.js";

type Container = {
  image: string;
  args: string[];
  env: { name: string; value?: string }[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: Record<string, unknown>;
  volumeMounts: { name: string; mountPath: string }[];
};
type PodSpec = {
  imagePullSecrets?: { name: string }[];
  securityContext: Record<string, unknown>;
  volumes: { name: string; emptyDir?: object }[];
  containers: Container[];
};
type Deployment = { spec: { template: { metadata: { annotations: Record<string, string> }; spec: PodSpec } } };

const deploymentOf = (objects: ReturnType<typeof installManifests>) =>
  objects.find((o) => o.kind === "Deployment") as unknown as Deployment;
const objects = installManifests({ namespace: "flux-system", image: "registry.test/flotilla:9.9.9", version: "9.9.9" });
const pod = deploymentOf(objects).spec.template;
const container = pod.spec.containers[0]!;

describe("the controller Deployment flotilla install writes", () => {
  it("runs the image reference it is given", () => {
    expect(container.image).toBe("registry.test/flotilla:9.9.9");
    expect(pod.spec.imagePullSecrets).toBeUndefined();
  });

  it("starts node with V8's young generation at 2 MiB per semi-space (NODE_OPTIONS), the benchmark's setting", () => {
    expect(container.env).toContainEqual({ name: "NODE_OPTIONS", value: "--max-semi-space-size=2" });
  });

  it("limits glibc's malloc to 2 arenas (MALLOC_ARENA_MAX), the benchmark's setting", () => {
    expect(container.env).toContainEqual({ name: "MALLOC_ARENA_MAX", value: "2" });
  });

  it("probes /healthz and /readyz on the healthz port, where --health-addr listens", () => {
    expect(container.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "healthz" });
    expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "healthz" });
    expect(container.ports).toContainEqual({ name: "healthz", containerPort: 9440, protocol: "TCP" });
    expect(container.args).toContain("--health-addr=:9440");
  });

  it("exposes metrics as Flux does: port http-prom 8080 (--metrics-addr) and the prometheus.io annotations", () => {
    expect(container.ports).toContainEqual({ name: "http-prom", containerPort: 8080, protocol: "TCP" });
    expect(container.args).toContain("--metrics-addr=:8080");
    expect(pod.metadata.annotations).toEqual({ "prometheus.io/port": "8080", "prometheus.io/scrape": "true" });
  });

  it("requests and limits what the benchmarks measured (192Mi above the 138 MiB peak, 1Gi above the 490 MiB tree)", () => {
    expect(container.resources).toEqual({
      requests: { cpu: "100m", memory: "192Mi" },
      limits: { cpu: "2000m", memory: "1Gi" },
    });
  });

  it("has Flux's security context: non-root, read-only root with /tmp and /data emptyDirs, nothing to escalate", () => {
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ["ALL"] },
      seccompProfile: { type: "RuntimeDefault" },
    });
    expect(container.volumeMounts.map((m) => m.mountPath).sort()).toEqual(["/data", "/tmp"]);
    expect(pod.spec.volumes.every((v) => v.emptyDir)).toBe(true);
  });

  it("pulls with the image pull secret when given (flux's --image-pull-secret)", () => {
    const withSecret = deploymentOf(
      installManifests({ namespace: "flux-system", image: "x:1", version: "1", imagePullSecret: "regcred" }),
    );
    expect(withSecret.spec.template.spec.imagePullSecrets).toEqual([{ name: "regcred" }]);
  });

  it("has no PodDisruptionBudget unless asked for, then one keeping the controller pod", () => {
    expect(objects.filter((o) => o.kind === "PodDisruptionBudget")).toEqual([]);
    const pdb = installManifests({ namespace: "ns", image: "x:1", version: "1", podDisruptionBudget: true }).filter(
      (o) => o.kind === "PodDisruptionBudget",
    );
    expect(pdb).toMatchObject([
      {
        apiVersion: "policy/v1",
        metadata: { name: "flotilla-controller", namespace: "ns" },
        spec: { minAvailable: 1, selector: { matchLabels: { app: "flotilla-controller" } } },
      },
    ]);
  });
});
