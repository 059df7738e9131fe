// A management plane shared by tenants, locked down as flux2-multi-tenancy does it: the real
// `flotilla controller` process with Flux's lockdown flags (what `flotilla install --multi-tenant`
// writes), and per tenant a namespace whose `default` ServiceAccount holds the `edit` ClusterRole in
// that namespace only, its own Git repository and GitRepository "repo". The attacker tries its
// tricks; the bystander has a Kustomization that must keep reconciling whatever the attacker does.
import type { Condition } from "../../src/api/meta/conditions.js";
import { type Kustomization, kustomizationCrd } from "../../src/api/kustomize/kustomization.js";
import { gitRepositoryCrd } from "../../src/api/source/git-repository.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import type { ControllerProcess } from "./controller-process.js";
import { eventually, planeCluster } from "./fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "./git-http-server.js";
import type { GitRepoHandle } from "./git-repository.js";
import { startHarness } from "./harness.js";

/** Flux's lockdown, with Flux's `--flag=true` syntax, as `flotilla install --multi-tenant` writes it. */
export const LOCKDOWN_ARGS = [
  "--no-cross-namespace-refs=true",
  "--no-remote-bases=true",
  "--default-service-account=default",
];

const KS = "/apis/kustomize.toolkit.fluxcd.io/v1";
const SOURCE = "/apis/source.toolkit.fluxcd.io/v1";

export interface Tenant {
  ns: string;
  repo: GitRepoHandle;
  /** Commits to the tenant's repository and waits for the GitRepository's artifact; returns its revision. */
  commit(files: Record<string, string | null>): Promise<string>;
  createKs(name: string, spec: Record<string, unknown>): Promise<void>;
  getKs(name: string): Promise<Kustomization>;
  /** Ready=True for the current generation. */
  waitReady(name: string, timeoutMs?: number): Promise<Kustomization>;
  /** Ready=False for the current generation, optionally with this reason. */
  waitNotReady(name: string, reason?: string, timeoutMs?: number): Promise<Condition>;
  /** Every Event in the tenant's namespace, as `kubectl get events` lists them. */
  events(): Promise<{ reason?: string; message?: string; involvedObject?: { name?: string } }[]>;
}

export interface HostileFleet {
  controller: ControllerProcess;
  /** The controller's --storage-path (artifacts, and the unpacked-artifact cache below it). */
  storagePath: string;
  attacker: Tenant;
  bystander: Tenant;
  /** Positive evidence that the controller still serves other tenants: the bystander applies a new revision. */
  bystanderKeepsReconciling(): Promise<void>;
  stop(): Promise<void>;
}

export const mgmt = planeCluster("management");

async function tenant(git: GitHttpServer, shard: string, ns: string): Promise<Tenant> {
  await mgmt.client.create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
    metadata: { name: "default-edit" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "edit" },
    subjects: [{ kind: "ServiceAccount", name: "default", namespace: ns }],
  });
  const repo = await git.createRepo(ns);
  await repo.commit({ "README.md": `${ns}\n` }, "init");
  const labels = { "flotilla.dev/shard": shard };
  const sourcePath = `${SOURCE}/namespaces/${ns}/gitrepositories/repo`;
  await mgmt.client.create(`${SOURCE}/namespaces/${ns}/gitrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "repo", namespace: ns, labels },
    spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
  });
  const getKs = (name: string) => mgmt.client.get<Kustomization>(`${KS}/namespaces/${ns}/kustomizations/${name}`);
  return {
    ns,
    repo,
    getKs,
    async commit(files) {
      const sha = await repo.commit(files, "change");
      const revision = `main@sha1:${sha}`;
      await mgmt.client.patch(sourcePath, "merge", {
        metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: new Date().toISOString() } },
      });
      await eventually(
        `${ns}'s GitRepository at ${revision}`,
        async () =>
          (await mgmt.client.get<{ status?: { artifact?: { revision: string } } }>(sourcePath)).status?.artifact
            ?.revision === revision,
        90_000,
      );
      return revision;
    },
    async createKs(name, spec) {
      await mgmt.client.create(`${KS}/namespaces/${ns}/kustomizations`, {
        apiVersion: "kustomize.toolkit.fluxcd.io/v1",
        kind: "Kustomization",
        metadata: { name, namespace: ns, labels },
        spec: { interval: "10m", prune: true, sourceRef: { kind: "GitRepository", name: "repo" }, ...spec },
      });
    },
    async waitReady(name, timeoutMs = 90_000) {
      let last = "";
      return eventually(
        `Kustomization ${ns}/${name} Ready`,
        async () => {
          const k = await getKs(name);
          const c = k.status?.conditions?.find((x) => x.type === "Ready");
          last = `${c?.reason}: ${c?.message}`;
          return c?.status === "True" && k.status?.observedGeneration === k.metadata.generation ? k : undefined;
        },
        timeoutMs,
      ).catch((err: Error) => {
        throw new Error(`${err.message} (last Ready: ${last})`);
      });
    },
    waitNotReady: (name, reason, timeoutMs = 90_000) =>
      eventually(
        `Kustomization ${ns}/${name} not Ready${reason ? ` (${reason})` : ""}`,
        async () => {
          const k = await getKs(name);
          const c = k.status?.conditions?.find((x) => x.type === "Ready");
          return c?.status === "False" &&
            c.observedGeneration === k.metadata.generation &&
            (!reason || c.reason === reason)
            ? c
            : undefined;
        },
        timeoutMs,
      ),
    events: async () =>
      (await mgmt.client.get<{ items: Awaited<ReturnType<Tenant["events"]>> }>(`/api/v1/namespaces/${ns}/events`))
        .items,
  };
}

export async function startHostileFleet(prefix: string): Promise<HostileFleet> {
  const shard = `hostile-${prefix}-${Date.now().toString(36)}`;
  const h = await startHarness({
    namespaces: { ctl: `${prefix}-ctl`, attacker: `${prefix}-attacker`, bystander: `${prefix}-bystander` },
    // The CRDs first (the controller's --install-crds races the test's first objects on a fresh fleet).
    crds: [gitRepositoryCrd(), kustomizationCrd()] as unknown as KubeObject[],
    controller: {
      in: "ctl",
      shard,
      storagePrefix: "hostile",
      leadingArgs: LOCKDOWN_ARGS,
      // Debug: the log scanned for leaks is the most verbose one the controller writes.
      extraArgs: ["--log-level", "debug", "--requeue-dependency", "5s"],
    },
  });
  const git = await startGitHttpServer();
  h.onCleanup(() => git.close());
  const attacker = await tenant(git, shard, h.ns.attacker);
  const bystander = await tenant(git, shard, h.ns.bystander);
  // First at cleanup: orphan what the tests applied while the controller still runs, so the namespaces go
  // without waiting on finalizers.
  h.onCleanup(async () => {
    for (const t of [attacker, bystander]) {
      const list = await mgmt.client.get<{ items: Kustomization[] }>(`${KS}/namespaces/${t.ns}/kustomizations`);
      for (const k of list.items) {
        const path = `${KS}/namespaces/${t.ns}/kustomizations/${k.metadata.name}`;
        await mgmt.client.patch(path, "merge", { spec: { deletionPolicy: "Orphan" } }).catch(() => {});
        await mgmt.client.delete(path).catch(() => {});
      }
    }
    await eventually(
      "the test's Kustomizations to be finalized",
      async () => {
        for (const t of [attacker, bystander])
          if ((await mgmt.client.get<{ items: unknown[] }>(`${KS}/namespaces/${t.ns}/kustomizations`)).items.length)
            return false;
        return true;
      },
      60_000,
    ).catch(() => {});
  });
  let round = 0;
  const applied = (revision: string) =>
    eventually(
      `the bystander's Kustomization to apply ${revision}`,
      async () => {
        const k = await bystander.getKs("steady");
        if (k.status?.lastAppliedRevision !== revision) return false;
        const cm = await mgmt.client.get<{ data: { round: string } }>(
          `/api/v1/namespaces/${bystander.ns}/configmaps/steady`,
        );
        return cm.data.round === String(round);
      },
      120_000,
    );
  const nextRound = () =>
    bystander.commit({
      "app/cm.yaml": `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: steady\ndata:\n  round: "${++round}"\n`,
    });
  const first = await nextRound();
  await bystander.createKs("steady", { path: "./app", targetNamespace: bystander.ns });
  await applied(first);
  const steady = async () => {
    await applied(await nextRound());
  };
  return {
    controller: h.controller,
    storagePath: h.storagePath,
    attacker,
    bystander,
    bystanderKeepsReconciling: steady,
    stop: () => h.cleanup(),
  };
}

/** Every string in the controller's log lines so far, one per line (for leak scans). */
export const logText = (controller: ControllerProcess) => controller.logs.map((l) => JSON.stringify(l)).join("\n");

/** YAML of a (Cluster)RoleBinding granting cluster-admin to the default service account of `ns`: an escalation attempt. */
export function clusterAdminBindingYaml(kind: "ClusterRoleBinding" | "RoleBinding", name: string, ns: string): string {
  const rbac = "rbac.authorization.k8s.io";
  return `${[
    `apiVersion: ${rbac}/v1`,
    `kind: ${kind}`,
    "metadata:",
    `  name: ${name}`,
    ...(kind === "RoleBinding" ? [`  namespace: ${ns}`] : []),
    "roleRef:",
    `  apiGroup: ${rbac}`,
    "  kind: ClusterRole",
    "  name: cluster-admin",
    "subjects:",
    "- kind: ServiceAccount",
    "  name: default",
    `  namespace: ${ns}`,
  ].join("\n")}\n`;
}
