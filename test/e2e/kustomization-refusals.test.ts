// What a Kustomization refuses, and how it says so: the multi-tenancy lockdown's cross-namespace
// references (Stalled/AccessDenied), a path that does not exist, a remote base, SOPS (not supported
// yet), and a kubeconfig Secret without the key — while Flux's key fallback (value, value.yaml) works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

let h: KustomizeHarness;
let other: string;
const tenant1 = planeCluster("tenant1");
const stalled = async (name: string) =>
  (await h.getKs(name)).status?.conditions?.find((c) => c.type === "Stalled")?.status;

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "refuse", noCrossNamespaceRefs: true });
  other = await testNamespace(h.mgmt.client, "refuse-other");
  await h.commit(
    {
      "app/cm.yaml": configMap("refused-app", h.ns),
      "remote-base/kustomization.yaml": "resources:\n- https://github.com/example/repo//deploy?ref=main\n",
      "kubeconfig/cm.yaml": configMap(`${h.ns}-fallback`, "default"),
    },
    "refusal cases",
  );
});

afterAll(async () => {
  await h?.stop();
  await tenant1.client.delete(`/api/v1/namespaces/default/configmaps/${h.ns}-fallback`).catch(() => undefined);
});

describe("Kustomization refusals", () => {
  it("under --no-cross-namespace-refs a sourceRef or dependsOn into another namespace is Stalled with AccessDenied, applying nothing", async () => {
    await h.createKs("cross-source", {
      path: "./app",
      sourceRef: { kind: "GitRepository", name: "platform", namespace: other },
    });
    const source = await h.waitNotReady("cross-source", "AccessDenied");
    expect(source.message).toBe(
      `can't access 'GitRepository/${other}/platform', cross-namespace references have been blocked`,
    );
    expect(await stalled("cross-source")).toBe("True");

    await h.createKs("cross-dep", { path: "./app", dependsOn: [{ name: "infra", namespace: other }] });
    const dep = await h.waitNotReady("cross-dep", "AccessDenied");
    expect(dep.message).toBe(
      `can't access 'Kustomization/${other}/infra', cross-namespace references have been blocked`,
    );
    expect(
      await h.mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "refused-app", namespace: h.ns } }),
    ).toBeUndefined();
  });

  it("a path that is not in the artifact says which path", async () => {
    await h.createKs("no-path", { path: "./does-not-exist" });
    const failed = await h.waitNotReady("no-path", "ArtifactFailed");
    expect(failed.message).toBe("kustomization path not found: stat ./does-not-exist: no such file or directory");
  });

  it("a remote base is refused by name (Flux's --no-remote-bases is flotilla's stance)", async () => {
    await h.createKs("remote-base", { path: "./remote-base" });
    const failed = await h.waitNotReady("remote-base", "BuildFailed");
    expect(failed.message).toContain('"https://github.com/example/repo//deploy?ref=main" is a remote base');
  });

  it("a kubeconfig Secret is read by key, else 'value', else 'value.yaml'; without any the message names the Secret", async () => {
    const admin = await h.mgmt.client.get<{ data: Record<string, string> }>(
      "/api/v1/namespaces/tenants/secrets/tenant1-admin-kubeconfig",
    );
    const conf = admin.data["admin.conf"]!;
    for (const [name, data] of [
      ["by-value", { value: conf }],
      ["by-value-yaml", { "value.yaml": conf }],
      ["no-key", { "something-else": conf }],
    ] as const)
      await h.mgmt.client.create(`/api/v1/namespaces/${h.ns}/secrets`, { metadata: { name }, data });
    await h.createKs("by-value", { path: "./kubeconfig", kubeConfig: { secretRef: { name: "by-value" } } });
    await h.waitReady("by-value");
    await h.createKs("by-value-yaml", { path: "./kubeconfig", kubeConfig: { secretRef: { name: "by-value-yaml" } } });
    await h.waitReady("by-value-yaml");
    expect(
      await tenant1.get({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: `${h.ns}-fallback`, namespace: "default" },
      }),
    ).toBeDefined();
    await h.createKs("no-key", { path: "./kubeconfig", kubeConfig: { secretRef: { name: "no-key" } } });
    const failed = await h.waitNotReady("no-key", "ReconciliationFailed");
    expect(failed.message).toBe(`kubeconfig secret '${h.ns}/no-key' has no key 'value'`);
  });
});
