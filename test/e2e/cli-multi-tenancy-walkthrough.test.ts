// The flux2-multi-tenancy README typed as a newcomer types it, with `flotilla` for `flux`: the tenant's
// rbac.yaml and sync.yaml from `create … --export` into the platform repository, the staging overlay
// with its v1beta1 patchesStrategicMerge patch, `create kustomization tenants … --export` for the
// cluster, the tenant's own repository with a `staging` directory — then `flotilla bootstrap git` on the
// management plane. Two departures, both said here: the namespace `flux-system` is this run's own
// namespace (the fleet is shared), and every Flux object carries `--label flotilla.dev/shard=<ns>`
// because this file's controller process is sharded to it (flux's --watch-label-selector).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BootstrapEnv, startBootstrapEnv } from "../support/bootstrap-env.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import type { GitRepoHandle } from "../support/git-repository.js";

const mgmt = planeCluster("management");
const apps = `apps-${randomBytes(3).toString("hex")}`;

let env: BootstrapEnv;
let tenantServer: GitHttpServer;
let devTeam: GitRepoHandle;
const flotilla = (...args: string[]) => env.ok(args);

const ksPath = (namespace: string, name: string) =>
  `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${namespace}/kustomizations/${name}`;
type Ks = {
  spec: Record<string, unknown>;
  status?: { conditions?: { type: string; status: string; message?: string }[] };
};
const readyOf = async (namespace: string, name: string) =>
  (await mgmt.client.get<Ks>(ksPath(namespace, name))).status?.conditions?.find((c) => c.type === "Ready");

beforeAll(async () => {
  env = await startBootstrapEnv("mt-flux-system");
  env.kustomizations.push([env.ns, "tenants"], [apps, "dev-team"]);
  tenantServer = await startGitHttpServer();
  devTeam = await tenantServer.createRepo("dev-team");
  await devTeam.commit(
    {
      "staging/kustomization.yaml": "resources:\n- podinfo-config.yaml\n",
      "staging/podinfo-config.yaml": `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: podinfo-config\n  namespace: ${apps}\ndata:\n  stage: staging\n`,
      "production/kustomization.yaml": "resources: []\n",
    },
    "dev-team: staging and production",
  );
}, 120_000);
afterAll(() => tenantServer?.close());

describe("the flux2-multi-tenancy README with flotilla", () => {
  it("bootstraps the management plane from Git; dev-team's staging objects land in its namespace, impersonating dev-team", async () => {
    const files: Record<string, string> = {};
    // flux create tenant dev-team --with-namespace=apps --export > ./tenants/base/dev-team/rbac.yaml
    files["tenants/base/dev-team/rbac.yaml"] = await flotilla(
      "create",
      "tenant",
      "dev-team",
      `--with-namespace=${apps}`,
      "--export",
    );
    // flux create source git dev-team --namespace=apps --url=… --branch=main --export > ./tenants/base/dev-team/sync.yaml
    files["tenants/base/dev-team/sync.yaml"] = await flotilla(
      "create",
      "source",
      "git",
      "dev-team",
      `--namespace=${apps}`,
      `--url=${devTeam.url}`,
      "--branch=main",
      env.shard,
      "--export",
    );
    // flux create kustomization dev-team --namespace=apps --service-account=dev-team --source=GitRepository/dev-team --path="./" --export >> …
    files["tenants/base/dev-team/sync.yaml"] += await flotilla(
      "create",
      "kustomization",
      "dev-team",
      `--namespace=${apps}`,
      "--service-account=dev-team",
      "--source=GitRepository/dev-team",
      "--path=./",
      env.shard,
      "--export",
    );
    // In the repository beside them (the README's tree): the base's kustomization.yaml.
    files["tenants/base/dev-team/kustomization.yaml"] = "resources:\n- rbac.yaml\n- sync.yaml\n";
    // cat << EOF | tee ./tenants/staging/dev-team-patch.yaml — as written, kustomize.toolkit.fluxcd.io/v1beta1
    files["tenants/staging/dev-team-patch.yaml"] =
      `apiVersion: kustomize.toolkit.fluxcd.io/v1beta1\nkind: Kustomization\nmetadata:\n  name: dev-team\n  namespace: ${apps}\nspec:\n  path: ./staging\n`;
    files["tenants/staging/kustomization.yaml"] =
      "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../base/dev-team\npatchesStrategicMerge:\n  - dev-team-patch.yaml\n";
    // The cluster's tenants Kustomization (the workshop's command).
    files["clusters/staging/tenants.yaml"] = await flotilla(
      "create",
      "kustomization",
      "tenants",
      `--namespace=${env.ns}`,
      "--source=GitRepository/flux-system",
      "--path=./tenants/staging",
      "--prune",
      "--interval=3m",
      env.shard,
      "--export",
    );
    await env.fleet.commit(files, "dev-team tenant");
    const before = await env.fleet.head();

    const boot = await env.bootstrap("clusters/staging");
    expect(boot.code, boot.stderr).toBe(0);
    expect(boot.stderr).toContain(`► cloning branch "main" from Git repository "${env.fleet.url}"`);
    expect(boot.stderr).toMatch(/✔ committed component manifests to "main" \("[0-9a-f]{40}"\)/);
    expect(boot.stderr).toContain("✔ bootstrap finished");
    expect(boot.stderr + boot.stdout).not.toContain(env.credentials.password);
    const bootstrapped = await env.fleet.head();
    expect(bootstrapped).not.toBe(before);
    const committed = execFileSync("git", ["--git-dir", env.fleet.path, "ls-tree", "-r", "--name-only", "main"], {
      encoding: "utf8",
    });
    expect(committed).toContain("clusters/staging/flux-system/gotk-sync.yaml");
    expect(committed).toContain("clusters/staging/flux-system/gotk-components.yaml");

    // tenants → dev-team's Kustomization at ./staging (the v1beta1 patch applied) → its ConfigMap in apps.
    await eventually("tenants Ready", async () => (await readyOf(env.ns, "tenants"))?.status === "True", 240_000);
    const devTeamKs = await eventually(
      "dev-team Ready",
      async () => {
        const ks = await mgmt.client.get<Ks>(ksPath(apps, "dev-team")).catch(() => undefined);
        return ks?.status?.conditions?.find((c) => c.type === "Ready")?.status === "True" ? ks : undefined;
      },
      240_000,
    );
    expect(devTeamKs.spec.path).toBe("./staging");
    expect(devTeamKs.spec.serviceAccountName).toBe("dev-team");
    const cm = await mgmt.client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${apps}/configmaps/podinfo-config`,
    );
    expect(cm.data.stage).toBe("staging");

    // `flotilla get all -A` shows every one of this run's objects Ready.
    const all = await flotilla("get", "all", "-A");
    const ours = all
      .split("\n")
      .filter(
        (l) =>
          l.startsWith(`${env.ns}\t`) ||
          l.startsWith(`${apps}\t`) ||
          l.startsWith(`${env.ns} `) ||
          l.startsWith(`${apps} `),
      );
    expect(ours.map((l) => l.split("\t")[1]!.trim()).sort()).toEqual([
      "gitrepository/dev-team",
      "gitrepository/flux-system",
      "kustomization/dev-team",
      "kustomization/flux-system",
      "kustomization/tenants",
    ]);
    for (const line of ours) expect(line.split("\t").map((c) => c.trim())[4], line).toBe("True");
  });

  it("impersonation: an object outside the tenant's namespace is refused as dev-team, and nothing of that commit is applied", async () => {
    await devTeam.commit(
      {
        "staging/escape.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: escape\n  namespace: default\n",
        "staging/kustomization.yaml": "resources:\n- podinfo-config.yaml\n- escape.yaml\n",
      },
      "try to write outside apps",
    );
    const r = await env.cli(["reconcile", "ks", "dev-team", "--with-source", "-n", apps]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`system:serviceaccount:${apps}:dev-team`);
    await expect(mgmt.client.get("/api/v1/namespaces/default/configmaps/escape")).rejects.toThrow();
  });

  it("re-running bootstrap git changes nothing in the repository", async () => {
    const head = await env.fleet.head();
    const again = await env.bootstrap("clusters/staging");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("✔ component manifests are up to date");
    expect(await env.fleet.head()).toBe(head);
  });
});
