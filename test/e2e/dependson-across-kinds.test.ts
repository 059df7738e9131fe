// dependsOn across kinds (the shape of Flux's open kustomize-controller#1653 / helm-controller#1480), through
// the real controller: a Kustomization waits for a HelmRelease (named by apiVersion and kind) to be Ready
// and applies nothing meanwhile; a HelmRelease waits for a CRD and for a ConfigMap's mere existence
// (`ready: false`); an entry that would let readyExpr read a Secret, or names a kind without apiVersion,
// stalls naming the entry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { benchChart } from "../support/charts.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { startGitHttpServer, type GitHttpServer } from "../support/git-http-server.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const mgmt = planeCluster("management");
const BENCH = { name: "bench", version: "1.0.0" };
const HR_API = "helm.toolkit.fluxcd.io/v2";
const CRD = `widgets${process.pid}.example.com`;
let env: HelmReleaseEnv;
let git: GitHttpServer;
const shard = () => ({ "flotilla.dev/shard": env.ns });
const ksPath = (name = "") =>
  `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${env.ns}/kustomizations${name && `/${name}`}`;
const ready = (o: { status?: { conditions?: { type: string; status: string; reason: string; message: string }[] } }) =>
  o.status?.conditions?.find((c) => c.type === "Ready");

async function createKustomization(name: string, dependsOn: unknown[]): Promise<void> {
  await mgmt.client.create(ksPath(), {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name, namespace: env.ns, labels: shard() },
    spec: {
      interval: "10m",
      path: "./apps",
      prune: true,
      targetNamespace: env.ns,
      sourceRef: { kind: "GitRepository", name: "apps" },
      dependsOn,
    },
  });
}

const waitReadyReason = (name: string, reason: string) =>
  eventually(
    `Kustomization ${name} Ready reason ${reason}`,
    async () => {
      const o = await mgmt.client.get<Kustomization>(ksPath(name));
      return ready(o)?.reason === reason ? ready(o)! : undefined;
    },
    120_000,
    500,
  );

beforeAll(async () => {
  env = await startHelmReleaseEnv("dep-kinds", { extraArgs: ["--requeue-dependency=2s"] });
  await benchChart(env.charts);
  git = await startGitHttpServer();
  const repo = await git.createRepo("apps");
  await repo.commit(
    { "apps/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after-addon\ndata:\n  x: y\n" },
    "apps",
  );
  await mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${env.ns}/gitrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "apps", namespace: env.ns, labels: shard() },
    spec: { interval: "10m", url: repo.url, ref: { branch: "main" } },
  });
}, 120_000);

afterAll(async () => {
  await mgmt.client.delete(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD}`).catch(() => {});
  await env?.stop();
  await git?.close();
});

describe("dependsOn across kinds", () => {
  it("a Kustomization waits for a HelmRelease to be Ready, applying nothing, then applies", async () => {
    await createKustomization("after-addon", [{ apiVersion: HR_API, kind: "HelmRelease", name: "addon" }]);
    const waiting = await waitReadyReason("after-addon", "DependencyNotReady");
    expect(waiting.message).toBe(`dependency 'HelmRelease/${env.ns}/addon' is not ready: not found`);
    await expect(mgmt.client.get(`/api/v1/namespaces/${env.ns}/configmaps/after-addon`)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await env.createRelease("addon", BENCH);
    await env.waitReady("addon", "True", 180_000);
    await waitReadyReason("after-addon", "ReconciliationSucceeded");
    expect(
      (await mgmt.client.get<{ data: { x: string } }>(`/api/v1/namespaces/${env.ns}/configmaps/after-addon`)).data.x,
    ).toBe("y");
  }, 300_000);

  it("a HelmRelease waits for a CRD to be established and for a ConfigMap to exist (ready: false)", async () => {
    await env.createRelease("needs-crd", BENCH, {
      releaseName: "needs-crd",
      dependsOn: [
        { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", name: CRD },
        { apiVersion: "v1", kind: "ConfigMap", name: "settings", ready: false },
      ],
    });
    const first = await eventually(
      "the release waiting for the CRD",
      async () => {
        const c = condOf(await env.hr("needs-crd"), "Ready");
        return c?.reason === "DependencyNotReady" ? c : undefined;
      },
      120_000,
    );
    expect(first.message).toBe(`dependency 'CustomResourceDefinition/${CRD}' is not ready: not found`);
    const [plural, ...group] = CRD.split(".");
    await mgmt.client.create("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: CRD },
      spec: {
        group: group.join("."),
        names: {
          plural,
          singular: `widget${process.pid}`,
          kind: `Widget${process.pid}`,
          listKind: `Widget${process.pid}List`,
        },
        scope: "Namespaced",
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
          },
        ],
      },
    });
    const second = await eventually(
      "the release waiting for the ConfigMap",
      async () => {
        const c = condOf(await env.hr("needs-crd"), "Ready");
        return c?.message.includes("ConfigMap") ? c : undefined;
      },
      120_000,
    );
    expect(second.message).toBe(`dependency 'ConfigMap/${env.ns}/settings' is not ready: not found`);
    await mgmt.client.create(`/api/v1/namespaces/${env.ns}/configmaps`, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "settings", namespace: env.ns },
    });
    await env.waitReady("needs-crd", "True", 180_000);
  }, 300_000);

  it("stalls on a readyExpr over a Secret and on a kind without apiVersion, naming the entry", async () => {
    await createKustomization("reads-secret", [
      { apiVersion: "v1", kind: "Secret", name: "token", readyExpr: "dep.data.token == 'x'" },
    ]);
    const secret = await waitReadyReason("reads-secret", "InvalidDependency");
    expect(secret.message).toContain("spec.dependsOn[0]: readyExpr cannot read a Secret");
    await createKustomization("no-api-version", [{ kind: "HelmRelease", name: "addon" }]);
    const noApi = await waitReadyReason("no-api-version", "InvalidDependency");
    expect(noApi.message).toBe(
      "spec.dependsOn[0] names kind HelmRelease without apiVersion: set apiVersion (for example helm.toolkit.fluxcd.io/v2)",
    );
  }, 240_000);
});
