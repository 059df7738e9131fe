// No silent skips for Helm sources: an oci:// URL on a default-type HelmRepository is Stalled saying
// to set spec.type oci (OCI HelmRepositories themselves: helmchart-oci-helm-repository.test.ts); a
// HelmChart asking for signature verification is Stalled by name; an unknown spec field is pruned by
// the API server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmChart, HelmRepository } from "../../src/api/source/helm.js";
import type { Condition } from "../../src/api/meta/conditions.js";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { type SourceControllers, startSourceControllers } from "../support/source-controllers.js";

const cluster = planeCluster("management");
let ns: string;
let sc: SourceControllers;
const condition = (o: { status?: { conditions?: Condition[] } }, type: string) =>
  o.status?.conditions?.find((c) => c.type === type);

beforeAll(async () => {
  ns = await testNamespace(cluster.client, "helm-unsupported");
  sc = await startSourceControllers(cluster, ns, { helm: true });
});

afterAll(async () => {
  await sc?.stop();
});

describe("Helm source fields flotilla does not implement", () => {
  it("an oci:// URL on a default-type HelmRepository is Stalled saying to set spec.type oci", async () => {
    await sc.create("helmrepositories", "oci-charts", { url: "oci://ghcr.io/example/charts" });
    const repo = await sc.waitReady<HelmRepository>("helmrepositories", "oci-charts", "False");
    expect(condition(repo, "Ready")?.reason).toBe("UnsupportedField");
    expect(condition(repo, "Ready")?.message).toBe(
      "an oci:// spec.url ('oci://ghcr.io/example/charts') with spec.type 'default' is not supported by flotilla: " +
        "set spec.type: oci for a chart registry, or use an OCIRepository with a HelmRelease chartRef",
    );
    expect(condition(repo, "Stalled")?.status).toBe("True");
  });

  it("a HelmChart with spec.verify is Stalled naming it", async () => {
    await sc.create("helmrepositories", "http-charts", { url: "https://charts.example.com" });
    await sc.create("helmcharts", "verified", {
      chart: "podinfo",
      sourceRef: { kind: "HelmRepository", name: "http-charts" },
      verify: { provider: "cosign" },
    });
    const chart = await sc.waitReady<HelmChart>("helmcharts", "verified", "False");
    expect(condition(chart, "Ready")?.reason).toBe("UnsupportedField");
    expect(condition(chart, "Ready")?.message).toMatch(
      /^spec\.verify \(provider 'cosign'\) is not supported by flotilla: /,
    );
    expect(condition(chart, "Stalled")?.status).toBe("True");
  });

  it("an unknown field is pruned by the API server, as with Flux's CRDs", async () => {
    await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/helmrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "HelmRepository",
      metadata: { name: "with-nonsense", namespace: ns },
      spec: { url: "https://charts.example.com", interval: "10m", suspend: true, nonsense: 1 },
    });
    const read = await sc.get<{ spec: Record<string, unknown> }>("helmrepositories", "with-nonsense");
    expect(read.spec).toEqual({
      url: "https://charts.example.com",
      interval: "10m",
      suspend: true,
      provider: "generic",
    });
  });
});
