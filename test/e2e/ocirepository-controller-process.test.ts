// The real `flotilla controller` process serves OCIRepository: it installs the CRD (short name ocirepo,
// Flux's columns URL, Ready, Status, Age, as kubectl prints them), pulls an artifact pushed to a real
// registry, and its Kustomization controller applies that artifact to a tenant plane.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMapYaml, pushFiles } from "../support/oci-push.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";

const mgmt = planeCluster("management");
const tenant1 = planeCluster("tenant1");
let reg: OciRegistry;
let controller: ControllerProcess;
let ns: string;
let remote: string;

beforeAll(async () => {
  reg = await startOciRegistry();
  ns = await testNamespace(mgmt.client, "oci-proc");
  remote = await testNamespace(tenant1.client, "oci-proc");
  controller = startController({ namespace: ns, shard: ns, storagePath: makeWorkDir("flotilla-oci-proc-") });
  await eventually(
    "the OCIRepository CRD served",
    () => mgmt.client.get(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/ocirepositories`).then(() => true),
    60_000,
    1000,
  );
});

afterAll(async () => {
  controller?.child.kill("SIGTERM");
  await controller?.exited();
  await reg?.stop();
});

describe("flotilla controller with an OCIRepository", () => {
  it("pulls the artifact, applies it to tenant1 through a Kustomization, and kubectl shows it as Flux does", async () => {
    const digest = await pushFiles({ host: reg.host, repository: "fleet/app" }, "1.0.0", {
      "app/cm.yaml": configMapYaml("from-oci", remote, { source: "oci" }),
    });
    const labels = { "flotilla.dev/shard": ns };
    await mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/ocirepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "OCIRepository",
      metadata: { name: "app", labels },
      spec: { url: `${reg.url}/fleet/app`, ref: { semver: "1.x" }, interval: "10m", insecure: true },
    });
    const admin = await mgmt.client.get<{ data: Record<string, string> }>(
      "/api/v1/namespaces/tenants/secrets/tenant1-admin-kubeconfig",
    );
    await mgmt.client.create(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "tenant1" },
      data: { "admin.conf": admin.data["admin.conf"]! },
    });
    await mgmt.client.create(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations`, {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata: { name: "app", labels },
      spec: {
        interval: "10m",
        prune: true,
        path: "./app",
        sourceRef: { kind: "OCIRepository", name: "app" },
        kubeConfig: { secretRef: { name: "tenant1", key: "admin.conf" } },
      },
    });
    const cm = await eventually("the ConfigMap from the OCI artifact on tenant1", () =>
      tenant1.client
        .get<{ data: Record<string, string> }>(`/api/v1/namespaces/${remote}/configmaps/from-oci`)
        .catch(() => undefined),
    );
    expect(cm.data).toEqual({ source: "oci" });
    // The status follows the apply (after its health checks): the revision Flux records, the OCI one.
    await eventually("the Kustomization's lastAppliedRevision", async () => {
      const ks = await mgmt.client.get<{ status?: { lastAppliedRevision?: string } }>(
        `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations/app`,
      );
      return ks.status?.lastAppliedRevision === `1.0.0@${digest}`;
    });

    const kubectl = spawnSync(
      join(toolsDir(), "bin", "kubectl"),
      ["--kubeconfig", plane("management").kubeconfig, "get", "ocirepo", "-n", ns],
      { encoding: "utf8" },
    );
    expect(kubectl.stderr).toBe("");
    const [header, row] = kubectl.stdout.trim().split("\n");
    expect(header!.split(/\s{2,}/)).toEqual(["NAME", "URL", "READY", "STATUS", "AGE"]);
    expect(row!.split(/\s{2,}/).slice(0, 4)).toEqual([
      "app",
      `${reg.url}/fleet/app`,
      "True",
      `stored artifact for digest '1.0.0@${digest}'`,
    ]);
  });
});
