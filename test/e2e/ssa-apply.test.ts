// The resource manager against a real apiserver: staged apply, atomic dry-run, impersonation,
// field-manager policies, immutable fields and force.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { requestCounts } from "../../src/kube/client.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { DryRunError, formatChangeSet, inventoryFromChangeSet, ResourceManager } from "../../src/ssa/index.js";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMap, namespace } from "../support/objects.js";

const owner = { group: "kustomize.toolkit.fluxcd.io", name: "apps", namespace: "flux-system" };
const cluster = planeCluster("tenant1");
const manager = (extra: Partial<ConstructorParameters<typeof ResourceManager>[1]> = {}) =>
  new ResourceManager(cluster, { fieldManager: "flotilla-test", owner, ...extra });

describe("resource manager apply", () => {
  it("applies a CRD with its custom resource and a new namespace with its objects, in stages, then reports them unchanged", async () => {
    const suffix = randomBytes(3).toString("hex");
    const group = `s${suffix}.flotilla.dev`;
    const ns = `staged-${suffix}`;
    const crd: KubeObject = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: "Namespaced",
        names: { kind: "Widget", plural: "widgets", singular: "widget", listKind: "WidgetList" },
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
          },
        ],
      },
    };
    const widget: KubeObject = {
      apiVersion: `${group}/v1`,
      kind: "Widget",
      metadata: { name: "w1", namespace: ns },
      spec: { size: 3 },
    };
    const set = [widget, configMap(ns, "settings", { a: "1" }), namespace(ns), crd];

    const first = await manager().apply(set);
    expect(formatChangeSet(first)).toBe(
      [
        `CustomResourceDefinition/widgets.${group} created`,
        `Namespace/${ns} created`,
        `ConfigMap/${ns}/settings created`,
        `Widget/${ns}/w1 created`,
      ].join("\n"),
    );
    expect(inventoryFromChangeSet(first).entries).toEqual([
      { id: `_widgets.${group}_apiextensions.k8s.io_CustomResourceDefinition`, v: "v1" },
      { id: `_${ns}__Namespace`, v: "v1" },
      { id: `${ns}_settings__ConfigMap`, v: "v1" },
      { id: `${ns}_w1_${group}_Widget`, v: "v1" },
    ]);
    const live = await cluster.get(widget);
    expect(live?.metadata.labels).toMatchObject({
      "kustomize.toolkit.fluxcd.io/name": "apps",
      "kustomize.toolkit.fluxcd.io/namespace": "flux-system",
    });

    // Nothing changed: decided from the live objects alone, without a dry-run or any write.
    const before = { ...Object.fromEntries(requestCounts) };
    const again = await manager().apply(set);
    expect(again.map((e) => e.action)).toEqual(["unchanged", "unchanged", "unchanged", "unchanged"]);
    const sent = (k: string) => (requestCounts.get(k) ?? 0) - (before[k] ?? 0);
    expect([sent("PATCH"), sent("PATCH dryRun"), sent("POST"), sent("PUT"), sent("DELETE")]).toEqual([0, 0, 0, 0, 0]);
    await cluster.delete(namespace(ns));
    await cluster.delete(crd);
  });

  it("with a previous inventory, dry-runs objects it does not list without reading them first, and still honours a live object's reconcile: disabled", async () => {
    const ns = await testNamespace(cluster.client, "presumed");
    // Exists already, not in the inventory, and marked by someone as not to be reconciled.
    await cluster.apply(
      configMap(ns, "hands-off", { a: "mine" }, { "kustomize.toolkit.fluxcd.io/reconcile": "disabled" }),
      "kubectl",
      {},
    );
    const before = { ...Object.fromEntries(requestCounts) };
    const sent = (k: string) => (requestCounts.get(k) ?? 0) - (before[k] ?? 0);
    const changes = await manager({ previousInventory: { entries: [] } }).apply([
      configMap(ns, "fresh-1", { a: "1" }),
      configMap(ns, "fresh-2", { a: "2" }),
      configMap(ns, "hands-off", { a: "theirs" }),
    ]);
    expect(formatChangeSet(changes)).toBe(
      [`ConfigMap/${ns}/fresh-1 created`, `ConfigMap/${ns}/fresh-2 created`, `ConfigMap/${ns}/hands-off skipped`].join(
        "\n",
      ),
    );
    // Only the object that turned out to exist was read; new ones cost one dry-run and one apply.
    expect(sent("GET")).toBe(1);
    expect(sent("PATCH dryRun")).toBe(3);
    expect(sent("PATCH")).toBe(2);
    expect((await cluster.get(configMap(ns, "hands-off")))?.data).toEqual({ a: "mine" });
  });

  it("writes nothing when any object fails the dry-run, and lists every failing object with the API's message", async () => {
    const ns = await testNamespace(cluster.client, "atomic");
    const bad1: KubeObject = {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "bad-port", namespace: ns },
      spec: { ports: [{ port: 99999 }] },
    };
    const bad2: KubeObject = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "Not_A_Valid_Name", namespace: ns },
      data: {},
    };
    const err = await manager()
      .apply([configMap(ns, "fine", { a: "1" }), bad1, bad2])
      .catch((e) => e);
    expect(err).toBeInstanceOf(DryRunError);
    const failures = (err as DryRunError).failures;
    expect(failures.map((f) => `${f.subject} ${f.reason}`).sort()).toEqual([
      `ConfigMap/${ns}/Not_A_Valid_Name Invalid`,
      `Service/${ns}/bad-port Invalid`,
    ]);
    expect((err as Error).message).toContain(
      `Service/${ns}/bad-port dry-run failed (Invalid): Service "bad-port" is invalid: [spec.ports[0].port: Invalid value: 99999: must be between 1 and 65535, inclusive`,
    );
    expect(await cluster.get(configMap(ns, "fine"))).toBeUndefined();
  });

  it("as a service account bound to one namespace, a set with a cluster-scoped object or another namespace's object applies nothing", async () => {
    const own = await testNamespace(cluster.client, "tenant-own");
    const other = await testNamespace(cluster.client, "tenant-other");
    await cluster.client.create(`/api/v1/namespaces/${own}/serviceaccounts`, { metadata: { name: "reconciler" } });
    await cluster.client.create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${own}/rolebindings`, {
      metadata: { name: "reconciler-admin" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "admin" },
      subjects: [{ kind: "ServiceAccount", name: "reconciler", namespace: own }],
    });
    const tenant = new ResourceManager(cluster.asServiceAccount(own, "reconciler"), {
      fieldManager: "flotilla-test",
      owner,
    });
    const clusterRole: KubeObject = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: `escalate-${own}` },
      rules: [],
    };

    const err = await tenant.apply([configMap(own, "mine"), configMap(other, "theirs"), clusterRole]).catch((e) => e);
    expect(err).toBeInstanceOf(DryRunError);
    const failures = (err as DryRunError).failures;
    expect(failures.map((f) => `${f.subject} ${f.reason}`).sort()).toEqual([
      `ClusterRole/escalate-${own} Forbidden`,
      `ConfigMap/${other}/theirs Forbidden`,
    ]);
    const theirs = failures.find((f) => f.subject.startsWith("ConfigMap"))!;
    expect(theirs.message).toBe(
      `configmaps "theirs" is forbidden: User "system:serviceaccount:${own}:reconciler" cannot patch resource "configmaps" in API group "" in the namespace "${other}"`,
    );
    expect(await cluster.get(configMap(own, "mine"))).toBeUndefined();

    // Its own namespace alone is fine.
    const ok = await tenant.apply([configMap(own, "mine", { a: "1" })]);
    expect(formatChangeSet(ok)).toBe(`ConfigMap/${own}/mine created`);
  });

  it("re-creates an object whose immutable field changed only when force is enabled", async () => {
    const ns = await testNamespace(cluster.client, "immutable");
    const job = (image: string): KubeObject => ({
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "migrate", namespace: ns },
      spec: { template: { spec: { restartPolicy: "Never", containers: [{ name: "m", image }] } } },
    });
    await manager().apply([job("busybox:1")]);
    const err = await manager()
      .apply([job("busybox:2")])
      .catch((e) => e);
    expect(err).toBeInstanceOf(DryRunError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^Job/${ns}/migrate dry-run failed \\(Invalid\\): Job.batch "migrate" is invalid: spec.template: .*field is immutable`,
      ),
    );
    const before = await cluster.get(job(""));

    const forced = await manager({ force: true }).apply([job("busybox:2")]);
    expect(formatChangeSet(forced)).toBe(`Job/${ns}/migrate created`);
    const after = await cluster.get(job(""));
    expect(after?.metadata.uid).not.toBe(before?.metadata.uid);
    expect(
      (after as unknown as { spec: { template: { spec: { containers: { image: string }[] } } } }).spec.template.spec
        .containers[0]!.image,
    ).toBe("busybox:2");

    // The per-object annotation works as the spec flag does.
    const annotated = job("busybox:3");
    annotated.metadata.annotations = { "kustomize.toolkit.fluxcd.io/force": "Enabled" };
    expect(formatChangeSet(await manager().apply([annotated]))).toBe(`Job/${ns}/migrate created`);
  });
});

describe("field manager policies (kustomize.toolkit.fluxcd.io/ssa)", () => {
  /** What `kubectl edit` does: an Update by a kubectl-named manager. */
  async function kubectlEdit(ns: string, name: string, data: Record<string, string>) {
    await cluster.client.patch(
      `/api/v1/namespaces/${ns}/configmaps/${name}`,
      "merge",
      { data },
      { fieldManager: "kubectl-edit" },
    );
  }
  const liveData = async (ns: string, name: string) => (await cluster.get(configMap(ns, name)))?.data;

  it("Override (default) reverts fields edited with kubectl and removes fields kubectl added", async () => {
    const ns = await testNamespace(cluster.client, "override");
    await manager().apply([configMap(ns, "cm", { a: "1" })]);
    await kubectlEdit(ns, "cm", { a: "edited", b: "added" });
    const cs = await manager().apply([configMap(ns, "cm", { a: "1" })]);
    expect(formatChangeSet(cs)).toBe(`ConfigMap/${ns}/cm configured`);
    expect(await liveData(ns, "cm")).toEqual({ a: "1" });
  });

  it("Merge keeps fields another manager added while enforcing the manifest's own fields", async () => {
    const ns = await testNamespace(cluster.client, "merge");
    const desired = configMap(ns, "cm", { a: "1" }, { "kustomize.toolkit.fluxcd.io/ssa": "Merge" });
    await manager().apply([desired]);
    await kubectlEdit(ns, "cm", { a: "edited", b: "added" });
    await manager().apply([desired]);
    expect(await liveData(ns, "cm")).toEqual({ a: "1", b: "added" });
  });

  it("IfNotPresent creates a missing object but never updates an existing one", async () => {
    const ns = await testNamespace(cluster.client, "ifnotpresent");
    const annotations = { "kustomize.toolkit.fluxcd.io/ssa": "IfNotPresent" };
    expect(formatChangeSet(await manager().apply([configMap(ns, "cm", { a: "1" }, annotations)]))).toBe(
      `ConfigMap/${ns}/cm created`,
    );
    await kubectlEdit(ns, "cm", { a: "edited" });
    expect(formatChangeSet(await manager().apply([configMap(ns, "cm", { a: "2" }, annotations)]))).toBe(
      `ConfigMap/${ns}/cm skipped`,
    );
    expect(await liveData(ns, "cm")).toEqual({ a: "edited" });
  });

  it("Ignore never touches the object, whether the annotation is in the manifest or on the live object", async () => {
    const ns = await testNamespace(cluster.client, "ignore");
    const ignored = configMap(ns, "cm", { a: "1" }, { "kustomize.toolkit.fluxcd.io/ssa": "Ignore" });
    expect(formatChangeSet(await manager().apply([ignored]))).toBe(`ConfigMap/${ns}/cm skipped`);
    expect(await cluster.get(ignored)).toBeUndefined();

    await manager().apply([configMap(ns, "live", { a: "1" })]);
    await cluster.client.patch(`/api/v1/namespaces/${ns}/configmaps/live`, "merge", {
      metadata: { annotations: { "kustomize.toolkit.fluxcd.io/ssa": "ignore" } },
      data: { a: "hand-edited" },
    });
    expect(formatChangeSet(await manager().apply([configMap(ns, "live", { a: "1" })]))).toBe(
      `ConfigMap/${ns}/live skipped`,
    );
    expect(await liveData(ns, "live")).toEqual({ a: "hand-edited" });
  });
});
