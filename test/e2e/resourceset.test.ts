// The Flux Operator's ResourceSet against the real `flotilla controller` process on the shared fleet's
// management plane: per-tenant namespaces, service accounts, role bindings and Kustomizations generated
// from inputs, pruned when an input goes; Static input providers through inputsFrom and the Permute
// strategy with its 10,000 limit; a template error that names the resource, the input and the line with
// nothing applied; dependsOn; and serviceAccountName impersonation.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kustomizationCrd } from "../../src/api/kustomize/kustomization.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { operatorCrds } from "../../src/api/flux-crds.js";
import { eventually } from "../support/fleet-context.js";
import { type Harness, startHarness } from "../support/harness.js";

type Condition = { type: string; status: string; reason: string; message: string };
type RSet = KubeObject & {
  status?: {
    observedGeneration?: number;
    conditions?: Condition[];
    inventory?: { entries: { id: string; v: string }[] };
    lastAppliedRevision?: string;
    history?: { digest: string; metadata?: Record<string, string> }[];
  };
};

let h: Harness<"rs">;
let ns: string;
const run = randomBytes(3).toString("hex");
const API = "/apis/fluxcd.controlplane.io/v1/namespaces";
const rsets = () => `${API}/${ns}/resourcesets`;
const condition = (o: RSet | undefined, type: string) => o?.status?.conditions?.find((c) => c.type === type);

beforeAll(async () => {
  h = await startHarness({
    namespaces: { rs: "rset" },
    crds: [...operatorCrds(), kustomizationCrd() as unknown as KubeObject],
    // dependsOn is looked at again every 2s (Flux's --requeue-dependency), not the default 30s.
    controller: { storagePrefix: "rset", extraArgs: ["--requeue-dependency", "2s"] },
  });
  ns = h.ns.rs;
}, 180_000);
afterAll(async () => h?.cleanup());

async function createRSet(name: string, spec: Record<string, unknown>, annotations: Record<string, string> = {}) {
  await h.mgmt.client.create(rsets(), {
    apiVersion: "fluxcd.controlplane.io/v1",
    kind: "ResourceSet",
    metadata: { name, namespace: ns, labels: { "flotilla.dev/shard": ns }, annotations },
    spec,
  });
}

/** The ResourceSet once its controller has handled this generation with Ready=`status`. */
const settled = (name: string, status: "True" | "False", reason?: string) =>
  eventually(
    `ResourceSet ${name} Ready=${status}${reason ? ` ${reason}` : ""}`,
    async () => {
      const r = await h.mgmt.client.get<RSet>(`${rsets()}/${name}`);
      const ready = condition(r, "Ready");
      return r.status?.observedGeneration === r.metadata.generation &&
        ready?.status === status &&
        (!reason || ready.reason === reason)
        ? r
        : undefined;
    },
    90_000,
  );

const tenantsTemplate = `---
apiVersion: v1
kind: Namespace
metadata:
  name: << inputs.tenant >>
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: flux
  namespace: << inputs.tenant >>
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: flux
  namespace: << inputs.tenant >>
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: << inputs.role >>
subjects:
  - kind: ServiceAccount
    name: flux
    namespace: << inputs.tenant >>
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps
  namespace: << inputs.tenant >>
spec:
  interval: << get inputs "interval" | default "10m" >>
  path: ./tenants/<< inputs.tenant | slugify >>
  prune: true
  serviceAccountName: flux
  sourceRef:
    kind: GitRepository
    name: fleet
    namespace: flux-system
`;

describe("ResourceSet (fluxcd.controlplane.io/v1)", () => {
  it("generates a namespace, ServiceAccount, RoleBinding and Kustomization per tenant input, and prunes a tenant's objects when its input is removed", async () => {
    const t1 = `${ns}-team1`;
    const t2 = `${ns}-team2`;
    h.onCleanup(async () => {
      for (const t of [t1, t2]) await h.mgmt.client.delete(`/api/v1/namespaces/${t}`).catch(() => undefined);
    });
    await createRSet("tenants", {
      commonMetadata: { labels: { "toolkit.fluxcd.io/tenant": "fleet" } },
      inputs: [
        { tenant: t1, role: "admin" },
        { tenant: t2, role: "view", interval: "5m" },
      ],
      resourcesTemplate: tenantsTemplate,
    });
    const r = await settled("tenants", "True", "ReconciliationSucceeded");
    expect(condition(r, "Ready")!.message).toMatch(/^Reconciliation finished in \d/);
    expect(r.status!.inventory!.entries.map((e) => e.id).sort()).toEqual(
      [
        `_${t1}__Namespace`,
        `_${t2}__Namespace`,
        `${t1}_flux__ServiceAccount`,
        `${t2}_flux__ServiceAccount`,
        `${t1}_flux_rbac.authorization.k8s.io_RoleBinding`,
        `${t2}_flux_rbac.authorization.k8s.io_RoleBinding`,
        `${t1}_apps_kustomize.toolkit.fluxcd.io_Kustomization`,
        `${t2}_apps_kustomize.toolkit.fluxcd.io_Kustomization`,
      ].sort(),
    );
    expect(r.status!.lastAppliedRevision).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.status!.history![0]!.metadata).toEqual({ inputs: "2", resources: "8" });
    const ks2 = await h.mgmt.client.get<KubeObject & { spec: { interval: string; path: string } }>(
      `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${t2}/kustomizations/apps`,
    );
    expect(ks2.spec).toMatchObject({ interval: "5m", path: `./tenants/${t2}` });
    expect(ks2.metadata.labels).toMatchObject({
      "resourceset.fluxcd.controlplane.io/name": "tenants",
      "resourceset.fluxcd.controlplane.io/namespace": ns,
      "toolkit.fluxcd.io/tenant": "fleet",
    });
    const managers = (ks2.metadata as { managedFields?: { manager: string }[] }).managedFields!.map((m) => m.manager);
    expect(managers).toContain("flux-operator");

    // team2's input goes: its objects go, team1's stay.
    await h.mgmt.client.patch(`${rsets()}/tenants`, "merge", { spec: { inputs: [{ tenant: t1, role: "admin" }] } });
    const after = await settled("tenants", "True", "ReconciliationSucceeded");
    expect(after.status!.inventory!.entries).toHaveLength(4);
    await eventually("team2's Kustomization pruned", async () =>
      h.mgmt.client.get(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${t2}/kustomizations/apps`).then(
        () => false,
        (e: Error) => /not found/i.test(e.message),
      ),
    );
    const gone = await h.mgmt.client.get<KubeObject>(`/api/v1/namespaces/${t2}`).then(
      (n) => n.metadata.deletionTimestamp !== undefined,
      (e: Error) => /not found/i.test(e.message),
    );
    expect(gone).toBe(true);
    await h.mgmt.client.get(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${t1}/kustomizations/apps`);
  });

  it("a template error stalls the ResourceSet with one message naming the resource, the input and the template line, and applies nothing", async () => {
    await createRSet("broken", {
      inputs: [{ name: `${run}-a`, size: "1" }, { name: `${run}-b` }],
      resourcesTemplate: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: << inputs.name >>\n  namespace: ${ns}\ndata:\n  size: << inputs.size | quote >>\n`,
    });
    const r = await settled("broken", "False", "BuildFailed");
    expect(condition(r, "Ready")!.message).toBe(
      `build failed: failed to build resourcesTemplate for inputs[1]: template: resourceset:7:11: executing "resourceset" at <inputs>: map has no entry for key "size"`,
    );
    expect(condition(r, "Stalled")?.status).toBe("True");
    const cms = await h.mgmt.list({ group: "", version: "v1", kind: "ConfigMap" }, ns, {
      labelSelector: "resourceset.fluxcd.controlplane.io/name=broken",
    });
    expect(cms).toEqual([]);
    expect(r.status?.inventory).toBeUndefined();
  });

  it("reads Static ResourceSetInputProviders by selector and permutes them with its own inputs (ids from the choice); more than 10,000 permutations stall it", async () => {
    for (const [name, env] of [
      ["env-staging", "staging"],
      ["env-production", "production"],
    ])
      await h.mgmt.client.create(`${API}/${ns}/resourcesetinputproviders`, {
        apiVersion: "fluxcd.controlplane.io/v1",
        kind: "ResourceSetInputProvider",
        metadata: { name, namespace: ns, labels: { "flotilla.dev/shard": ns, kind: "env" } },
        spec: { type: "Static", defaultValues: { env } },
      });
    await createRSet("matrix", {
      inputStrategy: { name: "Permute" },
      inputs: [{ app: "web" }, { app: "api" }],
      inputsFrom: [{ kind: "ResourceSetInputProvider", selector: { matchLabels: { kind: "env" } } }],
      resources: [
        {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: "<< inputs.matrix.app >>-<< inputs.env_staging.env >>-<< inputs.id >>", namespace: ns },
          data: { provider: "<< inputs.env_staging.provider.kind >>" },
        },
      ],
    });
    const r = await settled("matrix", "True");
    // 2 own inputs × 1 × 1: two ConfigMaps.
    expect(r.status!.inventory!.entries).toHaveLength(2);
    const cms = await h.mgmt.list({ group: "", version: "v1", kind: "ConfigMap" }, ns, {
      labelSelector: "resourceset.fluxcd.controlplane.io/name=matrix",
    });
    expect(cms.map((c) => c.metadata.name).every((n) => /^(web|api)-staging-\d+$/.test(n))).toBe(true);

    await createRSet("too-many", {
      inputStrategy: { name: "Permute" },
      inputs: Array.from({ length: 10_001 }, (_, i) => ({ i })),
      resources: [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x-<< inputs.id >>", namespace: ns } }],
    });
    const over = await settled("too-many", "False", "BuildFailed");
    expect(condition(over, "Ready")!.message).toBe(
      "failed to compute inputs: failed to get inputs from ResourceSet/too-many: adding provider 'too-many' with 10001 inputs would exceed the maximum allowed permutations. max: 10000, got: 10001",
    );
  });

  it("waits for dependsOn objects, and applies as spec.serviceAccountName", async () => {
    await createRSet("after-config", {
      dependsOn: [{ apiVersion: "v1", kind: "ConfigMap", name: "prerequisite", namespace: ns }],
      resources: [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "dependent", namespace: ns } }],
    });
    const waiting = await settled("after-config", "False", "DependencyNotReady");
    expect(condition(waiting, "Ready")!.message).toBe(
      `Retrying dependency check: dependency v1/ConfigMap/${ns}/prerequisite not found`,
    );
    await h.mgmt.client.create(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: "prerequisite" } });
    await settled("after-config", "True");
    await h.mgmt.client.get(`/api/v1/namespaces/${ns}/configmaps/dependent`);

    await createRSet("as-nobody", {
      serviceAccountName: "nobody",
      resources: [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "never", namespace: ns } }],
    });
    const refused = await settled("as-nobody", "False", "ReconciliationFailed");
    expect(condition(refused, "Ready")!.message).toContain(`system:serviceaccount:${ns}:nobody`);
    await expect(h.mgmt.client.get(`/api/v1/namespaces/${ns}/configmaps/never`)).rejects.toThrow(/not found/i);
  });

  it("applies spec.steps in order, each health-checked before the next within its timeout; an object in two steps, or a later template error, applies nothing and keeps the inventory", async () => {
    const cm = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: ns } });
    const cms = (rset: string) =>
      h.mgmt
        .list({ group: "", version: "v1", kind: "ConfigMap" }, ns, {
          labelSelector: `resourceset.fluxcd.controlplane.io/name=${rset}`,
        })
        .then((l) => l.map((c) => c.metadata.name).sort());
    await createRSet("stepped", {
      inputs: [{ id: "t1", tenant: run }],
      steps: [
        { name: "first", resources: [cm("first-<< inputs.tenant >>")] },
        {
          name: "second",
          resourcesTemplate: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: second-<< inputs.tenant >>\n  namespace: ${ns}\n`,
        },
      ],
    });
    // No kube-controller-manager on the fleet's planes: a PersistentVolumeClaim stays Pending, never ready.
    const pvc = {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "gate", namespace: ns },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Mi" } } },
    };
    await createRSet("gated", {
      steps: [
        { name: "gate", timeout: "2s", resources: [pvc] },
        { name: "after", resources: [cm("after-gate")] },
      ],
    });
    await createRSet("dup", {
      steps: [
        { name: "a", resources: [cm("dup")] },
        { name: "b", resources: [cm("dup")] },
      ],
    });

    const ok = await settled("stepped", "True");
    expect(await cms("stepped")).toEqual([`first-${run}`, `second-${run}`]);
    expect(ok.status!.inventory!.entries).toHaveLength(2);
    expect(ok.status!.history![0]!.metadata).toMatchObject({ inputs: "1", resources: "2", steps: "2" });

    const gated = await settled("gated", "False", "ReconciliationFailed");
    expect(condition(gated, "Ready")!.message).toMatch(
      new RegExp(
        `^reconciliation failed: step "gate" health check failed: timeout waiting for: \\[PersistentVolumeClaim/${ns}/gate status: 'InProgress'`,
      ),
    );
    // The gate's object is in the inventory (never orphaned); the step after it was never applied.
    expect(gated.status!.inventory!.entries.map((e) => e.id)).toEqual([`${ns}_gate__PersistentVolumeClaim`]);
    await expect(h.mgmt.client.get(`/api/v1/namespaces/${ns}/configmaps/after-gate`)).rejects.toThrow(/not found/i);

    const dup = await settled("dup", "False", "BuildFailed");
    expect(condition(dup, "Ready")!.message).toBe(
      `build failed: duplicate resource ConfigMap/${ns}/dup in step "b", already defined in step "a"`,
    );
    expect(await cms("dup")).toEqual([]);
    expect(dup.status?.inventory).toBeUndefined();

    // A template error after a good reconcile: stalled, nothing pruned or applied, the inventory as it was.
    await h.mgmt.client.patch(`${rsets()}/stepped`, "merge", {
      spec: {
        steps: [
          { name: "first", resources: [cm("first-<< inputs.tenant >>")] },
          { name: "second", resourcesTemplate: "name: << inputs.nope >>\n" },
        ],
      },
    });
    const broken = await settled("stepped", "False", "BuildFailed");
    expect(condition(broken, "Ready")!.message).toBe(
      `build failed: step "second": failed to build resourcesTemplate for inputs[0] (id t1): template: resourceset:1:9: executing "resourceset" at <inputs>: map has no entry for key "nope"`,
    );
    expect(broken.status!.inventory).toEqual(ok.status!.inventory);
    expect(await cms("stepped")).toEqual([`first-${run}`, `second-${run}`]);
  });
});
