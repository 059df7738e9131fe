// Charts from an OCI HelmRepository (spec.type 'oci', the legacy path 5 of the 13 largest Flux home-lab
// repositories still use), against a real distribution registry with charts pushed by the real helm:
// the repository stays a static data container as in Flux, and each HelmChart reads the registry
// itself — a range picks the highest matching tag, credentials come from a docker-registry Secret or
// username/password, TLS from certSecretRef — and every failure names what to do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmChart, HelmRepository } from "../../src/api/source/helm.js";
import type { Condition } from "../../src/api/meta/conditions.js";
import { readTarball } from "../../src/sources/artifact/tarball.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { CHARTS_PATH, pushChart } from "../support/oci-charts.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";
import { type SourceControllers, startSourceControllers } from "../support/source-controllers.js";

const cluster = planeCluster("management");
const BOT = { username: "chart-bot", password: "s3cret-do-not-print" };
let ns: string;
let sc: SourceControllers;
let plain: OciRegistry;
let locked: OciRegistry;
let tls: OciRegistry;

const ready = (o: { status?: { conditions?: Condition[] } }) => o.status?.conditions?.find((c) => c.type === "Ready");
const secret = (name: string, type: string, data: Record<string, string>) =>
  cluster.client.create(`/api/v1/namespaces/${ns}/secrets`, {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: ns },
    type,
    stringData: data,
  });

async function chartYamlOf(chart: HelmChart): Promise<string> {
  const res = await fetch(chart.status!.artifact!.url);
  const entries = readTarball(Buffer.from(await res.arrayBuffer()));
  return entries.find((e) => e.path.endsWith("/Chart.yaml"))!.content.toString("utf8");
}

beforeAll(async () => {
  ns = await testNamespace(cluster.client, "oci-helmrepo");
  sc = await startSourceControllers(cluster, ns, { helm: true });
  [plain, locked, tls] = await Promise.all([
    startOciRegistry(),
    startOciRegistry({ htpasswd: BOT }),
    startOciRegistry({ tls: true }),
  ]);
  for (const v of ["1.0.0", "1.1.0", "2.0.0"]) await pushChart(plain, "web", v);
  await pushChart(locked, "web", "1.0.0", { auth: BOT });
  await pushChart(tls, "web", "1.0.0");
}, 180_000);

afterAll(async () => {
  await sc?.stop();
  await Promise.all([plain?.stop(), locked?.stop(), tls?.stop()]);
});

describe("HelmChart from an OCI HelmRepository", () => {
  it("pulls the highest tag a range matches, stores it under its version, and the repository stays static", async () => {
    await sc.create("helmrepositories", "charts", { url: `${plain.url}/${CHARTS_PATH}`, type: "oci", insecure: true });
    await sc.create("helmcharts", "web", {
      chart: "web",
      version: "1.x",
      sourceRef: { kind: "HelmRepository", name: "charts" },
    });
    const chart = await sc.waitReady<HelmChart>("helmcharts", "web", "True");
    expect(chart.status!.artifact!.revision).toBe("1.1.0");
    expect(chart.status!.artifact!.path).toMatch(/\/web-1\.1\.0\.tgz$/);
    expect(ready(chart)?.message).toBe("pulled 'web' chart with version '1.1.0'");
    expect(await chartYamlOf(chart)).toContain("version: 1.1.0");

    // Flux's data container: no finalizer, no status, whatever reconciles it.
    await sc.requestReconcile("helmrepositories", "charts");
    const repo = await sc.get<HelmRepository>("helmrepositories", "charts");
    expect(repo.metadata.finalizers ?? []).toEqual([]);
    expect(repo.status?.conditions ?? []).toEqual([]);
    expect(repo.status?.artifact).toBeUndefined();
  });

  it("a concrete version is pulled as is, and a range nothing matches names the newest tags", async () => {
    await sc.create("helmcharts", "web-exact", {
      chart: "web",
      version: "2.0.0",
      sourceRef: { kind: "HelmRepository", name: "charts" },
    });
    expect((await sc.waitReady<HelmChart>("helmcharts", "web-exact", "True")).status!.artifact!.revision).toBe("2.0.0");

    await sc.create("helmcharts", "web-none", {
      chart: "web",
      version: "3.x",
      sourceRef: { kind: "HelmRepository", name: "charts" },
    });
    const none = await sc.waitReady<HelmChart>("helmcharts", "web-none", "False");
    expect(ready(none)?.reason).toBe("ChartPullError");
    expect(ready(none)?.message).toBe(
      `invalid chart reference: no tag of ${plain.url}/${CHARTS_PATH}/web matches version '3.x'; ` +
        "newest tags: 2.0.0, 1.1.0, 1.0.0",
    );
  });

  it("takes credentials from a docker-registry Secret, and refuses a wrong password without printing it", async () => {
    const auths = { auths: { [locked.host]: { username: BOT.username, password: BOT.password } } };
    await secret("registry-creds", "kubernetes.io/dockerconfigjson", { ".dockerconfigjson": JSON.stringify(auths) });
    await secret("wrong-creds", "Opaque", { username: BOT.username, password: "not-the-password" });
    const url = `${locked.url}/${CHARTS_PATH}`;
    await sc.create("helmrepositories", "locked", {
      url,
      type: "oci",
      insecure: true,
      secretRef: { name: "registry-creds" },
    });
    await sc.create("helmrepositories", "wrong", {
      url,
      type: "oci",
      insecure: true,
      secretRef: { name: "wrong-creds" },
    });
    for (const repo of ["locked", "wrong"])
      await sc.create("helmcharts", `web-${repo}`, { chart: "web", sourceRef: { kind: "HelmRepository", name: repo } });

    expect((await sc.waitReady<HelmChart>("helmcharts", "web-locked", "True")).status!.artifact!.revision).toBe(
      "1.0.0",
    );
    const refused = ready(await sc.waitReady<HelmChart>("helmcharts", "web-wrong", "False"))!;
    expect(refused.reason).toBe("ChartPullError");
    expect(refused.message).toContain(`registry ${locked.host} refused`);
    expect(refused.message).toContain("check the username and password");
    expect(refused.message).not.toContain("not-the-password");
  });

  it("trusts the registry's CA from certSecretRef, and without it says the certificate is not trusted", async () => {
    await secret("registry-ca", "Opaque", { "ca.crt": tls.caPem! });
    const url = `${tls.url}/${CHARTS_PATH}`;
    await sc.create("helmrepositories", "tls", { url, type: "oci", certSecretRef: { name: "registry-ca" } });
    await sc.create("helmrepositories", "tls-no-ca", { url, type: "oci" });
    for (const repo of ["tls", "tls-no-ca"])
      await sc.create("helmcharts", `web-${repo}`, { chart: "web", sourceRef: { kind: "HelmRepository", name: repo } });

    expect((await sc.waitReady<HelmChart>("helmcharts", "web-tls", "True")).status!.artifact!.revision).toBe("1.0.0");
    const untrusted = ready(await sc.waitReady<HelmChart>("helmcharts", "web-tls-no-ca", "False"))!;
    expect(untrusted.message).toContain(`registry ${tls.host}: its TLS certificate is not trusted`);
  });

  it("refuses a cloud provider by name, and an OCI type without an oci:// URL", async () => {
    await sc.create("helmrepositories", "aws", { url: `${plain.url}/${CHARTS_PATH}`, type: "oci", provider: "aws" });
    await sc.create("helmrepositories", "not-oci", { url: "https://charts.example.com", type: "oci" });
    for (const repo of ["aws", "not-oci"])
      await sc.create("helmcharts", `web-${repo}`, { chart: "web", sourceRef: { kind: "HelmRepository", name: repo } });
    const aws = await eventually("web-aws Stalled", async () => {
      const c = await sc.get<HelmChart>("helmcharts", "web-aws");
      return c.status?.conditions?.find((x) => x.type === "Stalled")?.status === "True" ? c : undefined;
    });
    expect(ready(aws)?.message).toBe(
      `spec.provider 'aws' of HelmRepository '${ns}/aws' is not supported by flotilla: ` +
        "use provider 'generic' with the registry's credentials in spec.secretRef",
    );
    const notOci = await sc.waitReady<HelmChart>("helmcharts", "web-not-oci", "False");
    expect(ready(notOci)?.message).toBe(
      `invalid OCI registry URL: https://charts.example.com (HelmRepository '${ns}/not-oci')`,
    );
  });
});
