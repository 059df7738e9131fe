// HelmRepository and HelmChart over HTTPS with mutual TLS, against a real chart repository on
// loopback that only talks to clients with a certificate from its CA: certSecretRef's ca.crt,
// tls.crt and tls.key are used for the index and the chart; without them the failure names the
// certificate problem; half a client certificate is refused before any request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmChart, HelmRepository } from "../../src/api/source/helm.js";
import { generateKeyPair, issueCertificate } from "../../src/local/pki/certificate.js";
import { type ChartRepo, startChartRepo } from "../support/chart-repo.js";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { type SourceControllers, startSourceControllers } from "../support/source-controllers.js";

const cluster = planeCluster("management");
let charts: ChartRepo;
let sc: SourceControllers;
let ns: string;
const ready = (o: { status?: { conditions?: { type: string; reason: string; message: string }[] } }) =>
  o.status?.conditions?.find((c) => c.type === "Ready");

beforeAll(async () => {
  ns = await testNamespace(cluster.client, "helmtls");
  const caKeys = generateKeyPair();
  const caSubject = { commonName: "flotilla test chart CA" };
  const ca = issueCertificate({ subject: caSubject, validityDays: 1, isCA: true }, caKeys);
  const issuer = { subject: caSubject, keys: caKeys };
  const serving = issueCertificate(
    { subject: { commonName: "charts" }, validityDays: 1, serverAuth: true, altNames: ["127.0.0.1"] },
    generateKeyPair(),
    issuer,
  );
  const client = issueCertificate(
    { subject: { commonName: "source-controller" }, validityDays: 1, clientAuth: true },
    generateKeyPair(),
    issuer,
  );
  charts = await startChartRepo({
    tls: { certPem: serving.certificatePem, keyPem: serving.privateKeyPem, clientCaPem: ca.certificatePem },
  });
  await charts.addChart("podinfo", "6.5.0");
  sc = await startSourceControllers(cluster, ns, { helm: true });
  const secret = async (name: string, stringData: Record<string, string>) =>
    cluster.client.create(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name }, stringData });
  await secret("mtls", {
    "ca.crt": ca.certificatePem,
    "tls.crt": client.certificatePem,
    "tls.key": client.privateKeyPem,
  });
  await secret("half", { "ca.crt": ca.certificatePem, "tls.crt": client.certificatePem });
});

afterAll(async () => {
  await sc?.stop();
  await charts?.close();
});

describe("chart repositories over mutual TLS", () => {
  it("reads the index and pulls the chart with certSecretRef's CA and client certificate", async () => {
    await sc.create(
      "helmrepositories",
      "mtls",
      { url: charts.url, interval: "10m", certSecretRef: { name: "mtls" } },
      "HelmRepository",
    );
    const repo = await sc.waitReady<HelmRepository>("helmrepositories", "mtls");
    expect(repo.status!.artifact!.revision).toMatch(/^sha256:[0-9a-f]{64}$/);
    await sc.create(
      "helmcharts",
      "podinfo",
      { chart: "podinfo", version: "6.x", interval: "10m", sourceRef: { kind: "HelmRepository", name: "mtls" } },
      "HelmChart",
    );
    const chart = await sc.waitReady<HelmChart>("helmcharts", "podinfo");
    expect(chart.status!.artifact!.revision).toBe("6.5.0");
    expect(charts.requests.byPath["/podinfo-6.5.0.tgz"]).toBe(1);
  });

  it("without the TLS secret the fetch fails naming the certificate problem", async () => {
    await sc.create("helmrepositories", "no-tls", { url: charts.url, interval: "10m" }, "HelmRepository");
    const failed = await sc.waitReady<HelmRepository>("helmrepositories", "no-tls", "False");
    expect(ready(failed)!.message).toMatch(/certificate/i);
  });

  it("half a client certificate is refused before any request, naming the missing key", async () => {
    charts.resetCounters();
    await sc.create(
      "helmrepositories",
      "half",
      { url: charts.url, interval: "10m", certSecretRef: { name: "half" } },
      "HelmRepository",
    );
    const failed = await sc.waitReady<HelmRepository>("helmrepositories", "half", "False");
    expect(ready(failed)).toMatchObject({ reason: "AuthenticationFailed" });
    expect(ready(failed)!.message).toContain("needs both 'tls.crt' and 'tls.key'");
    expect(charts.requests.total).toBe(0);
  });
});
