// A tenant trying to step out of its namespace through what it applies: a Namespace, a ClusterRole,
// a ClusterRoleBinding, and a RoleBinding to cluster-admin in its own namespace. Under
// --default-service-account=default the controller applies as system:serviceaccount:<ns>:default,
// which holds `edit` in that namespace only, so the API server refuses each; flotilla's dry-run of
// the whole set first (decision 0007) means the harmless ConfigMap beside it is not applied either.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clusterAdminBindingYaml, type HostileFleet, mgmt, startHostileFleet } from "../support/hostile-tenants.js";

let f: HostileFleet;
let ns: string;

const yaml = (lines: string[]) => `${lines.join("\n")}\n`;
const harmless = (name: string) =>
  yaml(["apiVersion: v1", "kind: ConfigMap", "metadata:", `  name: ${name}`, `  namespace: ${ns}`]);
const rbac = "rbac.authorization.k8s.io";

/** Each escalation, the object the API names in its refusal, and the path of what must not appear. */
const attempts = (ns: string) => ({
  // Its own Namespace, relabelled to switch Pod Security admission off.
  "own-namespace": {
    manifest: yaml([
      "apiVersion: v1",
      "kind: Namespace",
      "metadata:",
      `  name: ${ns}`,
      "  labels:",
      "    pod-security.kubernetes.io/enforce: privileged",
    ]),
    refused: `namespaces "${ns}" is forbidden`,
    path: `/api/v1/namespaces?labelSelector=pod-security.kubernetes.io/enforce%3Dprivileged,kubernetes.io/metadata.name%3D${ns}`,
  },
  namespace: {
    manifest: yaml(["apiVersion: v1", "kind: Namespace", "metadata:", `  name: ${ns}-owned`]),
    refused: `namespaces "${ns}-owned" is forbidden`,
    path: `/api/v1/namespaces/${ns}-owned`,
  },
  clusterrole: {
    manifest: yaml([
      `apiVersion: ${rbac}/v1`,
      "kind: ClusterRole",
      "metadata:",
      `  name: ${ns}-everything`,
      "rules:",
      "- apiGroups: ['*']",
      "  resources: ['*']",
      "  verbs: ['*']",
    ]),
    refused: `clusterroles.${rbac} "${ns}-everything" is forbidden`,
    path: `/apis/${rbac}/v1/clusterroles/${ns}-everything`,
  },
  clusterrolebinding: {
    manifest: clusterAdminBindingYaml("ClusterRoleBinding", `${ns}-admin`, ns),
    refused: `clusterrolebindings.${rbac} "${ns}-admin" is forbidden`,
    path: `/apis/${rbac}/v1/clusterrolebindings/${ns}-admin`,
  },
  rolebinding: {
    manifest: clusterAdminBindingYaml("RoleBinding", "default-cluster-admin", ns),
    refused: `rolebindings.${rbac} "default-cluster-admin" is forbidden`,
    path: `/apis/${rbac}/v1/namespaces/${ns}/rolebindings/default-cluster-admin`,
  },
});

beforeAll(async () => {
  f = await startHostileFleet("scope");
  ns = f.attacker.ns;
  const files: Record<string, string> = {
    "allowed/cm.yaml": harmless("allowed"),
    // A name that URL parsing would resolve away, aiming the request at the Namespace itself.
    "dot-name/dots.yaml": harmless('".."'),
    "dot-name/cm.yaml": harmless("beside-dot-name"),
  };
  for (const [what, a] of Object.entries(attempts(ns))) {
    files[`${what}/escalate.yaml`] = a.manifest;
    files[`${what}/cm.yaml`] = harmless(`beside-${what}`);
  }
  await f.attacker.commit(files);
}, 240_000);

afterAll(async () => {
  await f?.stop();
});

describe("a tenant creating cluster-scoped objects or binding cluster-admin through its service account", () => {
  it.each(Object.keys(attempts("x")))(
    "%s: Forbidden naming the identity and the object, and nothing of the set applied",
    async (what) => {
      const a = attempts(ns)[what as keyof ReturnType<typeof attempts>];
      // No targetNamespace: kustomize would rename a Namespace object to it.
      await f.attacker.createKs(what, { path: `./${what}` });
      const failed = await f.attacker.waitNotReady(what, "ReconciliationFailed");
      expect(failed.message).toContain(a.refused);
      expect(failed.message).toMatch(
        new RegExp(`User "system:serviceaccount:${ns}:default" cannot (create|patch|get) resource`),
      );
      expect(failed.message).toContain("impersonating");
      const found = await mgmt.client.get<{ items?: unknown[] }>(a.path).catch(() => undefined);
      expect(found?.items ?? found).toSatisfy((x) => x === undefined || (Array.isArray(x) && x.length === 0));
      expect(await mgmt.client.get(`/api/v1/namespaces/${ns}/configmaps/beside-${what}`).catch(() => undefined)).toBe(
        undefined,
      );
      expect((await f.attacker.getKs(what)).status?.inventory?.entries ?? []).toEqual([]);
      await f.bystanderKeepsReconciling();
    },
  );

  it("a ConfigMap named '..' (whose path would resolve to its Namespace's) is refused by name, nothing applied", async () => {
    await f.attacker.createKs("dot-name", { path: "./dot-name" });
    const failed = await f.attacker.waitNotReady("dot-name", "ReconciliationFailed");
    expect(failed.message).toContain(`ConfigMap/${ns}/.. dry-run failed`);
    expect(failed.message).toContain("'..' is not a valid object name or namespace");
    expect(await mgmt.client.get(`/api/v1/namespaces/${ns}/configmaps/beside-dot-name`).catch(() => undefined)).toBe(
      undefined,
    );
    await f.bystanderKeepsReconciling();
  });

  it("the same identity applies what its namespace allows (so the refusals above were the escalation's, not a broken set-up)", async () => {
    await f.attacker.createKs("allowed", { path: "./allowed" });
    await f.attacker.waitReady("allowed");
    expect(await mgmt.client.get(`/api/v1/namespaces/${ns}/configmaps/allowed`)).toBeDefined();
    // And the ConfigMaps refused beside the escalations are still absent after this later, successful reconcile.
    for (const what of Object.keys(attempts(ns)))
      expect(
        await mgmt.client.get(`/api/v1/namespaces/${ns}/configmaps/beside-${what}`).catch(() => undefined),
      ).toBeUndefined();
  });
});
