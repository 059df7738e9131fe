// The Flux Operator's ResourceSet data annotations and input providers against the real `flotilla
// controller` on the shared fleet's management plane: copyFrom, convertKubeConfigFrom (a tenant plane's
// real admin kubeconfig) and checksumFrom on generated objects; and the ResourceSetInputProvider types
// flotilla computes besides Static.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/api/meta/object.js";
import { operatorCrds } from "../../src/api/flux-crds.js";
import { eventually } from "../support/fleet-context.js";
import { type Harness, startHarness } from "../support/harness.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";
import { pushFiles } from "../support/oci-push.js";

type Condition = { type: string; status: string; reason: string; message: string };
type Status = { observedGeneration?: number; conditions?: Condition[]; [k: string]: unknown };
type Obj = KubeObject & { status?: Status; data?: Record<string, string> };

let h: Harness<"rs">;
let registry: OciRegistry;
let service: Server;
let serviceUrl: string;
/** What the loopback ExternalService answers, and how often it was asked (with which Authorization). */
let serviceInputs: Record<string, unknown>[] = [];
const serviceCalls: (string | undefined)[] = [];
let ns: string;
const run = randomBytes(3).toString("hex");
const API = "/apis/fluxcd.controlplane.io/v1/namespaces";
const GROUP = "fluxcd.controlplane.io";

beforeAll(async () => {
  h = await startHarness({
    namespaces: { rs: "rsetp" },
    crds: operatorCrds(),
    controller: { storagePrefix: "rsetp" },
  });
  ns = h.ns.rs;
  registry = await startOciRegistry();
  h.onCleanup(() => registry.stop());
  service = createServer((req, res) => {
    serviceCalls.push(req.headers.authorization);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ inputs: serviceInputs }));
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}/inputs`;
  h.onCleanup(() => new Promise((resolve) => service.close(resolve)));
}, 180_000);
afterAll(async () => h?.cleanup());

const create = (
  plural: string,
  kind: string,
  name: string,
  spec: Record<string, unknown>,
  annotations: Record<string, string> = {},
) =>
  h.mgmt.client.create(`${API}/${ns}/${plural}`, {
    apiVersion: `${GROUP}/v1`,
    kind,
    metadata: { name, namespace: ns, labels: { "flotilla.dev/shard": ns }, annotations },
    spec,
  });

const settled = (plural: string, name: string, status: "True" | "False") =>
  eventually(
    `${plural} ${name} Ready=${status}`,
    async () => {
      const r = await h.mgmt.client.get<Obj>(`${API}/${ns}/${plural}/${name}`);
      const ready = r.status?.conditions?.find((c) => c.type === "Ready");
      return r.status?.observedGeneration === r.metadata.generation && ready?.status === status ? r : undefined;
    },
    90_000,
  );
const readyMessage = (o: Obj) => o.status!.conditions!.find((c) => c.type === "Ready")!.message;
const configMap = (name: string) => h.mgmt.client.get<Obj>(`/api/v1/namespaces/${ns}/configmaps/${name}`);

describe("ResourceSet data annotations", () => {
  it("copyFrom copies a ConfigMap's data and a Secret's, convertKubeConfigFrom writes a plane's address and CA, checksumFrom sets the checksum of what it names", async () => {
    await h.mgmt.client.create(`/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: "settings" },
      data: { region: "eu-west-1", tier: "gold" },
    });
    await h.mgmt.client.create(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "token" },
      type: "Opaque",
      stringData: { token: `t-${run}` },
    });
    const kubeconfigSecret = await h.copyKubeconfig("tenant1", ns, { name: "plane-a", key: "value" });
    const copied = (kind: string, name: string, from: string, extra: Record<string, unknown> = {}) => ({
      apiVersion: "v1",
      kind,
      metadata: { name, namespace: ns, annotations: { [`${GROUP}/copyFrom`]: from } },
      ...extra,
    });
    await create("resourcesets", "ResourceSet", "copies", {
      resources: [
        copied("ConfigMap", "settings-copy", `${ns}/settings`),
        copied("Secret", "token-copy", `${ns}/token`),
        {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: {
            name: "plane-a-address",
            namespace: ns,
            annotations: { [`${GROUP}/convertKubeConfigFrom`]: `${ns}/${kubeconfigSecret}` },
          },
        },
        {
          apiVersion: "apps/v1",
          kind: "Deployment",
          metadata: { name: "app", namespace: ns },
          spec: {
            replicas: 0,
            selector: { matchLabels: { app: "app" } },
            template: {
              metadata: {
                labels: { app: "app" },
                annotations: { [`${GROUP}/checksumFrom`]: `ConfigMap/${ns}/settings` },
              },
              spec: { containers: [{ name: "app", image: "registry.invalid/app:1" }] },
            },
          },
        },
      ],
    });
    const rset = await settled("resourcesets", "copies", "True");
    expect(rset.status!.externalChecksumRefs).toEqual([`ConfigMap/${ns}/settings`]);

    expect((await configMap("settings-copy")).data).toEqual({ region: "eu-west-1", tier: "gold" });
    const secret = await h.mgmt.client.get<Obj>(`/api/v1/namespaces/${ns}/secrets/token-copy`);
    expect(Buffer.from(secret.data!.token!, "base64").toString()).toBe(`t-${run}`);
    expect((secret as unknown as { type: string }).type).toBe("Opaque");

    const address = await configMap("plane-a-address");
    const kubeconfig = await h.mgmt.client.get<Obj>(`/api/v1/namespaces/${ns}/secrets/${kubeconfigSecret}`);
    const text = Buffer.from(kubeconfig.data!.value!, "base64").toString();
    expect(address.data!.address).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(text).toContain(`server: ${address.data!.address}`);
    expect(address.data!["ca.crt"]).toContain("-----BEGIN CERTIFICATE-----");

    // sha256 over "ConfigMap/ns/settings\0" then each sorted key\0value\0, as the operator hashes it.
    const expected =
      "sha256:" +
      createHash("sha256").update(`ConfigMap/${ns}/settings\0region\0eu-west-1\0tier\0gold\0`).digest("hex");
    const deploy = await h.mgmt.client.get<{
      spec: { template: { metadata: { annotations: Record<string, string> } } };
    }>(`/apis/apps/v1/namespaces/${ns}/deployments/app`);
    expect(deploy.spec.template.metadata.annotations[`${GROUP}/checksum`]).toBe(expected);
  });

  it("a copyFrom source that does not exist fails the ResourceSet by name and applies nothing", async () => {
    await create("resourcesets", "ResourceSet", "copies-missing", {
      resources: [
        { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "before-missing", namespace: ns } },
        {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: "from-missing", namespace: ns, annotations: { [`${GROUP}/copyFrom`]: `${ns}/absent` } },
        },
      ],
    });
    const failed = await settled("resourcesets", "copies-missing", "False");
    expect(readyMessage(failed)).toBe(
      `reconciliation failed: failed to copy data from ConfigMap/${ns}/absent: not found`,
    );
    await expect(configMap("before-missing")).rejects.toThrow(/not found/i);
  });
});

const perInput = (name: string) => ({
  resources: [
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `${name}-<< inputs.id >>`, namespace: ns },
      data: { value: "<< inputs.value >>", tier: "<< inputs.tier >>" },
    },
  ],
});
const configMapsOf = async (prefix: string) =>
  (await h.mgmt.client.get<{ items: Obj[] }>(`/api/v1/namespaces/${ns}/configmaps`)).items
    .filter((c) => c.metadata.name.startsWith(`${prefix}-`))
    .map((c) => ({ name: c.metadata.name, ...c.data }) as Record<string, string>)
    .sort((a, b) => a.name!.localeCompare(b.name!));

describe("ResourceSetInputProvider types flotilla computes", () => {
  it("ExternalService exports the inputs a loopback HTTP service lists (Bearer token, defaultValues, limit); a ResourceSet generates from them and prunes when the service drops one", async () => {
    serviceInputs = [
      { id: "alpha", value: "a" },
      { id: "beta", value: "b", tier: "gold" },
      { id: "gamma", value: "c" },
    ];
    await h.mgmt.client.create(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "service-token" },
      stringData: { token: `tok-${run}` },
    });
    await create(
      "resourcesetinputproviders",
      "ResourceSetInputProvider",
      "service",
      {
        type: "ExternalService",
        url: serviceUrl,
        insecure: true,
        secretRef: { name: "service-token" },
        defaultValues: { tier: "silver" },
        filter: { limit: 2 },
      },
      // Asked again every 2s, so the change below is seen without waiting 10 minutes.
      { [`${GROUP}/reconcileEvery`]: "2s" },
    );
    const provider = await settled("resourcesetinputproviders", "service", "True");
    expect(provider.status!.exportedInputs).toEqual([
      { id: "alpha", value: "a", tier: "silver" },
      { id: "beta", value: "b", tier: "gold" },
    ]);
    expect(provider.status!.lastExportedRevision).toMatch(/^sha256:[a-f0-9]{64}$/);
    expect(serviceCalls[0]).toBe(`Bearer tok-${run}`);

    await create("resourcesets", "ResourceSet", "from-service", {
      inputsFrom: [{ name: "service" }],
      ...perInput("svc"),
    });
    await settled("resourcesets", "from-service", "True");
    expect(await configMapsOf("svc")).toEqual([
      { name: "svc-alpha", value: "a", tier: "silver" },
      { name: "svc-beta", value: "b", tier: "gold" },
    ]);

    serviceInputs = [{ id: "beta", value: "b2" }];
    await eventually(
      "svc-alpha pruned and svc-beta updated after the service dropped alpha",
      async () => {
        const now = await configMapsOf("svc");
        return now.length === 1 && now[0]!.value === "b2" ? now : undefined;
      },
      90_000,
    );
    expect(await configMapsOf("svc")).toEqual([{ name: "svc-beta", value: "b2", tier: "silver" }]);
  });

  it("OCIArtifactTag exports the registry's tags that pass the semver filter, newest first up to the limit, with their digests", async () => {
    const repo = { host: registry.host, repository: `apps/rsip-${run}` };
    const digests: Record<string, string> = {};
    for (const tag of ["0.9.0", "1.0.0", "1.1.0", "1.2.0-rc.1", "1.2.0", "latest"])
      digests[tag] = await pushFiles(repo, tag, { "cm.yaml": `tag: ${tag}\n` });
    await create("resourcesetinputproviders", "ResourceSetInputProvider", "app-tags", {
      type: "OCIArtifactTag",
      url: `oci://${registry.host}/${repo.repository}`,
      insecure: true,
      filter: { semver: ">=1.0.0", limit: 2, excludeTag: "^1\\.0\\." },
    });
    // ids: adler32 of the tag, as the operator's inputs.ID computes them.
    const provider = await settled("resourcesetinputproviders", "app-tags", "True");
    expect(provider.status!.exportedInputs).toEqual([
      { id: "47448304", tag: "1.2.0", digest: digests["1.2.0"] },
      { id: "47251695", tag: "1.1.0", digest: digests["1.1.0"] },
    ]);

    await create("resourcesetinputproviders", "ResourceSetInputProvider", "azure", {
      type: "AzureDevOpsBranch",
      url: "https://dev.azure.com/example/project/_git/app",
    });
    const refused = await settled("resourcesetinputproviders", "azure", "False");
    expect(readyMessage(refused)).toMatch(
      /^spec\.type 'AzureDevOpsBranch' is not supported by flotilla: flotilla computes the types Static, ExternalService, OCIArtifactTag, GitHubBranch/,
    );
  });
});
