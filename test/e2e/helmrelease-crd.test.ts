// The HelmRelease CRD on a real API server: the Kamaji guide's v2beta1 manifest applies as written,
// a v2 manifest using every field keeps them all, a field in no Flux CRD is pruned, and the v2beta
// fields flotilla honours (valuesFile, patchesStrategicMerge/patchesJson6902, skipCRDs) survive the
// conversion to the stored v2 — reading the object back as v2 still shows them.
import { beforeAll, describe, expect, it } from "vitest";
import { fluxCrds } from "../../src/api/flux-crds.js";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import { InvalidError } from "../../src/kube/errors.js";
import { parseYamlDocuments } from "../../src/kustomize/yaml/parse.js";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { kamajiGuideManifests } from "../support/kamaji-guide.js";

const cluster = planeCluster("management");
const HR = "/apis/helm.toolkit.fluxcd.io";
let ns: string;

const KAMAJI_GUIDE = kamajiGuideManifests("http://127.0.0.1:8879/charts");

const create = (version: string, name: string, spec: Record<string, unknown>) =>
  cluster.client.create<HelmRelease>(`${HR}/${version}/namespaces/${ns}/helmreleases`, {
    apiVersion: `helm.toolkit.fluxcd.io/${version}`,
    kind: "HelmRelease",
    metadata: { name, namespace: ns },
    spec,
  });
const readV2 = (name: string) => cluster.client.get<HelmRelease>(`${HR}/v2/namespaces/${ns}/helmreleases/${name}`);

/** Every field of helm-controller v1.6's v2 spec (with chart; chartRef is the alternative to it). */
const everyV2Field = {
  chart: {
    metadata: { labels: { team: "platform" }, annotations: { note: "every field" } },
    spec: {
      chart: "podinfo",
      version: "6.x",
      sourceRef: { apiVersion: "source.toolkit.fluxcd.io/v1", kind: "HelmRepository", name: "repo", namespace: "src" },
      interval: "10m",
      reconcileStrategy: "Revision",
      valuesFiles: ["values.yaml", "values-prod.yaml"],
      ignoreMissingValuesFiles: true,
      verify: { provider: "notation", secretRef: { name: "trust" } },
    },
  },
  interval: "5m",
  kubeConfig: { secretRef: { name: "remote", key: "value" } },
  suspend: false,
  releaseName: "podinfo-release",
  targetNamespace: "apps",
  storageNamespace: "apps",
  dependsOn: [{ name: "base", namespace: "infra", readyExpr: "dep.status.ready == true" }],
  timeout: "3m",
  maxHistory: 7,
  serviceAccountName: "deployer",
  persistentClient: true,
  driftDetection: {
    mode: "warn",
    ignore: [{ paths: ["/spec/replicas"], target: { group: "apps", version: "v1", kind: "Deployment", name: "x" } }],
  },
  install: {
    timeout: "4m",
    crds: "CreateReplace",
    replace: true,
    createNamespace: true,
    disableHooks: true,
    disableOpenAPIValidation: true,
    disableSchemaValidation: true,
    disableTakeOwnership: true,
    disableWait: true,
    disableWaitForJobs: true,
    serverSideApply: false,
    skipCRDs: false,
    strategy: { name: "RetryOnFailure", retryInterval: "2m" },
    remediation: { retries: 3, ignoreTestFailures: true, remediateLastFailure: true },
  },
  upgrade: {
    timeout: "4m",
    crds: "Skip",
    chartNameChangeStrategy: "Reinstall",
    cleanupOnFail: true,
    disableHooks: true,
    disableOpenAPIValidation: true,
    disableSchemaValidation: true,
    disableTakeOwnership: true,
    disableWait: true,
    disableWaitForJobs: true,
    force: true,
    preserveValues: true,
    serverSideApply: "auto",
    strategy: { name: "RemediateOnFailure" },
    remediation: { retries: -1, ignoreTestFailures: false, remediateLastFailure: false, strategy: "uninstall" },
  },
  test: { enable: true, timeout: "1m", ignoreFailures: true, filters: [{ name: "smoke", exclude: true }] },
  rollback: {
    timeout: "2m",
    cleanupOnFail: true,
    disableHooks: true,
    disableWait: true,
    disableWaitForJobs: true,
    force: true,
    recreate: true,
    serverSideApply: "disabled",
  },
  uninstall: {
    timeout: "2m",
    deletionPropagation: "foreground",
    disableHooks: true,
    disableWait: true,
    keepHistory: true,
  },
  valuesFrom: [
    { kind: "ConfigMap", name: "vals", valuesKey: "extra.yaml", targetPath: "a.b[0]", optional: true, literal: false },
  ],
  values: { replicaCount: 2, nested: { list: [1, "two", { three: true }] } },
  postRenderers: [
    {
      kustomize: {
        patches: [{ patch: "- op: add\n  path: /metadata/labels/x\n  value: y\n", target: { kind: "Deployment" } }],
        images: [{ name: "nginx", newName: "registry.local/nginx", newTag: "1.27", digest: "sha256:abc" }],
      },
    },
  ],
  postRenderStrategy: "combined",
  waitStrategy: { name: "poller" },
  healthCheckExprs: [{ apiVersion: "example.com/v1", kind: "Thing", current: "status.ok", failed: "status.bad" }],
  commonMetadata: { labels: { owner: "platform" }, annotations: { "example.com/a": "b" } },
};

beforeAll(async () => {
  for (const crd of fluxCrds()) await cluster.apply(crd, "flotilla-test", { force: true });
  for (const version of ["v2", "v2beta2", "v2beta1"])
    await cluster.discovery.waitForMapping({ group: "helm.toolkit.fluxcd.io", version, kind: "HelmRelease" }, 60_000);
  await cluster.discovery.waitForMapping(
    { group: "source.toolkit.fluxcd.io", version: "v1beta2", kind: "HelmRepository" },
    60_000,
  );
  ns = await testNamespace(cluster.client, "hr-crd");
}, 120_000);

describe("the HelmRelease CRD", () => {
  it("accepts the Kamaji guide's v2beta1 HelmRelease (and its v1beta2 HelmRepository) as written, and serves it as v2", async () => {
    const docs = parseYamlDocuments(KAMAJI_GUIDE, "kamaji-guide.yaml").map(
      (d) => d.value as { apiVersion: string; kind: string; metadata: { name: string; namespace: string } },
    );
    const [repo, release] = docs as [(typeof docs)[0], HelmRelease & (typeof docs)[0]];
    repo.metadata.namespace = ns;
    release.metadata.namespace = ns;
    release.spec.chart!.spec.sourceRef.namespace = ns;
    await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1beta2/namespaces/${ns}/helmrepositories`, repo);
    await cluster.client.create(`${HR}/v2beta1/namespaces/${ns}/helmreleases`, release);

    const stored = await readV2("tenant1-cert-manager");
    expect(stored.apiVersion).toBe("helm.toolkit.fluxcd.io/v2");
    expect(stored.spec).toEqual({
      interval: "5m",
      kubeConfig: { secretRef: { name: "tenant1-admin-kubeconfig", key: "admin.conf" } },
      targetNamespace: "default",
      chart: {
        spec: {
          chart: "cert-manager",
          version: "v1.10.1",
          sourceRef: { kind: "HelmRepository", name: "jetstack", namespace: ns },
          interval: "1m",
          reconcileStrategy: "ChartVersion", // Flux's CRD default
        },
      },
      values: { replicaCount: 2 },
    });
    expect(stored.status).toEqual({ observedGeneration: -1 });
  });

  it("keeps every field of a v2 manifest that uses them all", async () => {
    await create("v2", "every-field", everyV2Field);
    expect((await readV2("every-field")).spec).toEqual(everyV2Field);
    const viaChartRef = { interval: "5m", chartRef: { kind: "ExternalArtifact", name: "app", namespace: "src" } };
    await create("v2", "chart-ref", viaChartRef);
    expect((await readV2("chart-ref")).spec).toEqual(viaChartRef);
  });

  it("prunes a field that is in no Flux CRD, at the top of the spec and inside the chart template", async () => {
    await create("v2", "unknown-field", {
      interval: "5m",
      chart: {
        spec: { chart: "podinfo", version: "1.0.0", sourceRef: { kind: "HelmRepository", name: "r" }, colour: "red" },
      },
      notAFluxField: true,
    });
    const spec = (await readV2("unknown-field")).spec as unknown as Record<string, unknown>;
    expect(spec.notAFluxField).toBeUndefined();
    expect(spec.chart).toEqual({
      spec: {
        chart: "podinfo",
        version: "1.0.0",
        reconcileStrategy: "ChartVersion",
        sourceRef: { kind: "HelmRepository", name: "r" },
      },
    });
  });

  it.each(["v2beta1", "v2beta2"])(
    "a %s manifest's valuesFile, patchesStrategicMerge, patchesJson6902 and skipCRDs survive conversion to v2",
    async (version) => {
      const name = `old-fields-${version}`;
      const patchesStrategicMerge = [
        { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "app" }, spec: { replicas: 3 } },
      ];
      const patchesJson6902 = [
        {
          target: { kind: "Deployment", name: "app" },
          patch: [{ op: "add", path: "/metadata/labels/patched", value: "yes" }],
        },
      ];
      await create(version, name, {
        interval: "5m",
        chart: {
          spec: { chart: "podinfo", sourceRef: { kind: "HelmRepository", name: "r" }, valuesFile: "values-prod.yaml" },
        },
        install: { skipCRDs: true },
        postRenderers: [{ kustomize: { patchesStrategicMerge, patchesJson6902 } }],
      });
      const spec = (await readV2(name)).spec;
      expect(spec.chart?.spec.valuesFile).toBe("values-prod.yaml");
      expect(spec.install?.skipCRDs).toBe(true);
      expect(spec.postRenderers).toEqual([{ kustomize: { patchesStrategicMerge, patchesJson6902 } }]);
    },
  );

  it("refuses, as Flux's CRD does, a v2 manifest with both chart and chartRef", async () => {
    const both = create("v2", "both", {
      interval: "5m",
      chart: { spec: { chart: "podinfo", sourceRef: { kind: "HelmRepository", name: "r" } } },
      chartRef: { kind: "HelmChart", name: "c" },
    });
    await expect(both).rejects.toBeInstanceOf(InvalidError);
    await expect(both).rejects.toThrow(/either chart or chartRef must be set/);
  });
});
