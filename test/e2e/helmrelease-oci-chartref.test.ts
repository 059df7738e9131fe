// Flux's modern path for charts in a registry, as its flux2-kustomize-helm-example writes it: an
// OCIRepository selecting helm's chart layer (operation copy) and a HelmRelease with `chartRef` to it,
// installed by the real controller process onto a tenant plane through a kubeconfig Secret — `helm ls`
// on the tenant lists it, under the chart version with the OCI digest as build metadata (helm-controller's
// digest tracking). A new chart version pushed to the registry is picked up by the semver range and
// upgrades the release; the legacy path (an OCI HelmRepository in spec.chart) installs too.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";
import { CHARTS_PATH, pushChart } from "../support/oci-charts.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";

const HELM_LAYER = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";
const mgmt = planeCluster("management");
const tenant = planeCluster("tenant1");
let env: HelmReleaseEnv;
let reg: OciRegistry;
let remoteNs: string;

const create = (plural: string, group: string, kind: string, name: string, spec: Record<string, unknown>) => {
  const apiVersion = `${group}/${group.startsWith("helm.") ? "v2" : "v1"}`;
  return mgmt.client.create(`/apis/${apiVersion}/namespaces/${env.ns}/${plural}`, {
    apiVersion,
    kind,
    metadata: { name, namespace: env.ns, labels: { "flotilla.dev/shard": env.ns } },
    spec,
  });
};

const releaseOnTenant = (name: string) => ({
  interval: "10m",
  timeout: "60s",
  kubeConfig: { secretRef: { name: "tenant1-kubeconfig" } },
  targetNamespace: remoteNs,
  releaseName: name,
});

async function helmList(): Promise<{ name: string; chart: string; status: string }[]> {
  return JSON.parse(await env.helm(["ls", "-n", remoteNs, "-o", "json"], "tenant1")) as never;
}

beforeAll(async () => {
  reg = await startOciRegistry();
  await pushChart(reg, "web", "1.0.0", { message: "one" });
  env = await startHelmReleaseEnv("ocichartref");
  remoteNs = await testNamespace(tenant.client, "ocichartref");
  await mgmt.client.create(`/api/v1/namespaces/${env.ns}/secrets`, {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "tenant1-kubeconfig", namespace: env.ns },
    stringData: { value: readFileSync(plane("tenant1").kubeconfig, "utf8") },
  });
}, 180_000);

afterAll(async () => {
  await env?.stop();
  await reg?.stop();
});

describe("HelmRelease chartRef to an OCIRepository", () => {
  it("installs the chart on a tenant plane under its version plus the OCI digest, and upgrades on a new tag", async () => {
    await create("ocirepositories", "source.toolkit.fluxcd.io", "OCIRepository", "web", {
      interval: "10m",
      url: `${reg.url}/${CHARTS_PATH}/web`,
      ref: { semver: ">=1.0.0" },
      insecure: true,
      layerSelector: { mediaType: HELM_LAYER, operation: "copy" },
    });
    await create("helmreleases", "helm.toolkit.fluxcd.io", "HelmRelease", "web", {
      ...releaseOnTenant("web"),
      chartRef: { kind: "OCIRepository", name: "web" },
    });
    const hr = await env.waitReady("web");
    const revision = (
      await mgmt.client.get<{ status: { artifact: { revision: string } } }>(
        `/apis/source.toolkit.fluxcd.io/v1/namespaces/${env.ns}/ocirepositories/web`,
      )
    ).status.artifact.revision;
    expect(revision).toMatch(/^1\.0\.0@sha256:[a-f0-9]{64}$/);
    const digest = revision.split("@")[1]!;
    const version = `1.0.0+${digest.slice("sha256:".length, "sha256:".length + 12)}`;
    expect(hr.status!.lastAttemptedRevision).toBe(version);
    expect(hr.status!.lastAttemptedRevisionDigest).toBe(digest);
    // The release's snapshot records the artifact it came from, as helm-controller's history does.
    expect(hr.status!.history?.[0]?.ociDigest).toBe(digest);
    expect(hr.status!.helmChart).toBeUndefined();
    expect(await helmList()).toEqual([
      expect.objectContaining({ name: "web", chart: `web-${version}`, status: "deployed" }),
    ]);
    const cm = await tenant.client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${remoteNs}/configmaps/web-web`,
    );
    expect(cm.data.message).toBe("one");

    // A new version in the registry: the OCIRepository's range picks it, the release is upgraded.
    await pushChart(reg, "web", "1.1.0", { message: "two" });
    await mgmt.client.patch(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${env.ns}/ocirepositories/web`, "merge", {
      metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": new Date().toISOString() } },
    });
    const upgraded = await eventually(
      "the release upgraded to web 1.1.0",
      async () => {
        const o = await env.hr("web");
        return o.status?.lastAttemptedRevision?.startsWith("1.1.0+") &&
          o.status.conditions?.find((c) => c.type === "Ready")?.status === "True"
          ? o
          : undefined;
      },
      180_000,
    );
    expect(upgraded.status!.history?.[0]?.chartVersion).toBe(upgraded.status!.lastAttemptedRevision);
    // Each revision keeps its own digest; the verified snapshot stays InSync at the next reconcile.
    expect(upgraded.status!.history?.map((h) => h.ociDigest)).toEqual([
      upgraded.status!.lastAttemptedRevisionDigest,
      digest,
    ]);
    expect(
      (await tenant.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${remoteNs}/configmaps/web-web`))
        .data.message,
    ).toBe("two");
  }, 420_000);

  it("installs through the legacy path too: spec.chart from an OCI HelmRepository", async () => {
    await create("helmrepositories", "source.toolkit.fluxcd.io", "HelmRepository", "oci-charts", {
      interval: "10m",
      type: "oci",
      url: `${reg.url}/${CHARTS_PATH}`,
      insecure: true,
    });
    await create("helmreleases", "helm.toolkit.fluxcd.io", "HelmRelease", "legacy", {
      ...releaseOnTenant("legacy"),
      chart: {
        metadata: { labels: { "flotilla.dev/shard": env.ns } },
        spec: { chart: "web", version: "1.0.x", sourceRef: { kind: "HelmRepository", name: "oci-charts" } },
      },
    });
    const hr: HelmRelease = await env.waitReady("legacy");
    expect(hr.status!.lastAttemptedRevision).toBe("1.0.0");
    expect(await helmList()).toContainEqual(expect.objectContaining({ name: "legacy", chart: "web-1.0.0" }));
  });

  it("a chartRef to an OCIRepository that does not exist waits, naming it", async () => {
    await create("helmreleases", "helm.toolkit.fluxcd.io", "HelmRelease", "missing", {
      ...releaseOnTenant("missing"),
      chartRef: { kind: "OCIRepository", name: "nowhere" },
    });
    const hr = await eventually("missing's SourceNotReady", async () => {
      const c = (await env.hr("missing")).status?.conditions?.find((x) => x.type === "Ready");
      return c?.reason === "SourceNotReady" ? c : undefined;
    });
    expect(hr.message).toBe(`OCIRepository '${env.ns}/nowhere' is not ready: not found`);
  });
});
