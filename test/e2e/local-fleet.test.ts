// The shared local fleet behaves like real clusters: pinned version, working controllers,
// Kamaji-shaped tenant records, and planes isolated from each other.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KubeClient } from "../../src/kube/client.js";
import { ConnectionError, NotFoundError } from "../../src/kube/errors.js";
import { endpointFromKubeconfig, endpointFromKubeconfigFile } from "../../src/kube/kubeconfig.js";
import { adminClient, eventually, plane, testFleet, testNamespace } from "../support/fleet-context.js";

const pinnedKubernetesVersion = /^KUBERNETES_VERSION=(\S+)$/m.exec(readFileSync("tools/versions.env", "utf8"))![1]!;

interface Deployment {
  status?: { availableReplicas?: number; conditions?: { type: string; status: string }[] };
}

describe("local fleet", () => {
  it("runs a management plane and two tenant planes on one shared etcd", () => {
    const { state } = testFleet();
    expect(state.planes.map((p) => `${p.name}/${p.role}`)).toEqual([
      "management/management",
      "tenant1/tenant",
      "tenant2/tenant",
    ]);
    expect(state.etcd?.process.component).toBe("etcd");
    expect(
      state.planes.every(
        (p) =>
          p.processes
            .map((x) => x.component)
            .sort()
            .join() === "kube-apiserver,kube-controller-manager,kube-scheduler,kwok",
      ),
    ).toBe(true);
  });

  it("each plane reports the pinned Kubernetes version", async () => {
    for (const p of testFleet().state.planes) {
      const version = await adminClient(p.name).get<{ gitVersion: string; major: string; minor: string }>("/version");
      expect(version.gitVersion, p.name).toBe(pinnedKubernetesVersion);
      expect(`v${version.major}.${version.minor}`).toBe(pinnedKubernetesVersion.split(".").slice(0, 2).join("."));
    }
  });

  it("every kwok node heartbeats through a node Lease, so the node lifecycle controller never sees it go stale", async () => {
    for (const p of testFleet().state.planes) {
      const client = adminClient(p.name);
      const leasePath = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/kwok-node-0";
      const renewTime = async () =>
        (await client.get<{ spec: { renewTime?: string; leaseDurationSeconds?: number } }>(leasePath)).spec;
      const first = await eventually(`${p.name}: node Lease`, async () => {
        try {
          return await renewTime();
        } catch (err) {
          if (err instanceof NotFoundError) return undefined;
          throw err;
        }
      });
      expect(first.leaseDurationSeconds, p.name).toBe(40);
      // Renewed well within the 40s duration (kubelet's cadence is a quarter of it).
      await eventually(
        `${p.name}: node Lease renewed`,
        async () => (await renewTime()).renewTime !== first.renewTime,
        20_000,
      );
    }
  });

  it("a Deployment applied to a tenant plane becomes Available on the kwok node", async () => {
    const tenant = adminClient("tenant1");
    const ns = await testNamespace(tenant, "deploy");
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
    await tenant.apply(
      path,
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "web", namespace: ns },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: "web" } },
          template: {
            metadata: { labels: { app: "web" } },
            spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
          },
        },
      },
      "flotilla-test",
    );
    const deployment = await eventually("Deployment web Available", async () => {
      const d = await tenant.get<Deployment>(path);
      return d.status?.conditions?.some((c) => c.type === "Available" && c.status === "True") ? d : undefined;
    });
    expect(deployment.status?.availableReplicas).toBe(2);
    const pods = await tenant.get<{ items: { spec: { nodeName?: string }; status: { phase: string } }[] }>(
      `/api/v1/namespaces/${ns}/pods`,
    );
    expect(pods.items.map((p) => [p.spec.nodeName, p.status.phase])).toEqual([
      ["kwok-node-0", "Running"],
      ["kwok-node-0", "Running"],
    ]);
  });

  it("the admin kubeconfig read back from tenants/<tenant>-admin-kubeconfig reaches that tenant plane", async () => {
    const management = adminClient("management");
    for (const tenant of ["tenant1", "tenant2"]) {
      const secret = await management.get<{
        data: Record<string, string>;
        metadata: { labels: Record<string, string> };
      }>(`/api/v1/namespaces/tenants/secrets/${tenant}-admin-kubeconfig`);
      expect(secret.metadata.labels).toMatchObject({
        "kamaji.clastix.io/name": tenant,
        "kamaji.clastix.io/component": "admin-kubeconfig",
      });
      const adminConf = Buffer.from(secret.data["admin.conf"]!, "base64").toString("utf8");
      const fromSecret = new KubeClient(
        endpointFromKubeconfig(adminConf, { source: `tenants/${tenant}-admin-kubeconfig` }),
      );
      // Same plane, not merely some plane: an object written through the Secret's kubeconfig is
      // read back through the plane's own kubeconfig file.
      const ns = await testNamespace(fromSecret, "via-secret");
      const direct = adminClient(tenant);
      await expect(direct.get(`/api/v1/namespaces/${ns}`)).resolves.toMatchObject({ metadata: { name: ns } });
      await expect(management.get(`/api/v1/namespaces/${ns}`)).rejects.toBeInstanceOf(NotFoundError);
    }
  });

  it("the management plane holds a Ready TenantControlPlane per tenant, shaped as Kamaji's", async () => {
    const management = adminClient("management");
    interface TenantControlPlane {
      metadata: { name: string };
      status: {
        kubernetesResources: { version: { status: string } };
        controlPlaneEndpoint: string;
        kubeconfig: { admin: { secretName: string } };
      };
    }
    const list = await management.get<{ items: TenantControlPlane[] }>(
      "/apis/kamaji.clastix.io/v1alpha1/namespaces/tenants/tenantcontrolplanes",
    );
    expect(list.items.map((t) => t.metadata.name).sort()).toEqual(["tenant1", "tenant2"]);
    for (const tcp of list.items) {
      expect(tcp.status.kubernetesResources.version.status).toBe("Ready");
      expect(tcp.status.controlPlaneEndpoint).toBe(`127.0.0.1:${plane(tcp.metadata.name).port}`);
      expect(tcp.status.kubeconfig.admin.secretName).toBe(`${tcp.metadata.name}-admin-kubeconfig`);
    }
  });

  it("a namespace deleted on a plane is really removed by the controller-manager", async () => {
    const tenant = adminClient("tenant2");
    const ns = await testNamespace(tenant, "doomed");
    await tenant.create(`/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "content" },
      data: { a: "b" },
    });
    await tenant.delete(`/api/v1/namespaces/${ns}`);
    await eventually(`namespace ${ns} to be gone`, async () => {
      try {
        await tenant.get(`/api/v1/namespaces/${ns}`);
        return false;
      } catch (err) {
        if (err instanceof NotFoundError) return true;
        throw err;
      }
    });
  });

  it("keeps planes isolated: objects stay in their plane and each plane has its own CA", async () => {
    const tenant1 = adminClient("tenant1");
    const ns = await testNamespace(tenant1, "isolated");
    await expect(adminClient("tenant2").get(`/api/v1/namespaces/${ns}`)).rejects.toBeInstanceOf(NotFoundError);
    // tenant1's credentials pointed at tenant2's endpoint: tenant2's serving cert is not signed by tenant1's CA.
    const endpoint = endpointFromKubeconfigFile(plane("tenant1").kubeconfig);
    const crossed = new KubeClient({
      ...endpoint,
      name: "tenant1-creds-at-tenant2",
      server: `https://127.0.0.1:${plane("tenant2").port}`,
    });
    await expect(crossed.get("/version")).rejects.toBeInstanceOf(ConnectionError);
  });
});
