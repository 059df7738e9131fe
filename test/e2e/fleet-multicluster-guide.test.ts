// docs/guides/multicluster.md, run as written: every `sh` block of the guide, in order, by bash, with
// `flotilla` the built CLI, against the local fleet — a fleet repository and a tenant's repository over
// real git smart-HTTP (pushed to by the guide's own `git push`), the source, Kustomization and fleet
// controllers in-process against the management plane, and tenant1 and tenant2 as the environment's
// remote clusters. After each step, what the guide says it did is checked on the planes.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { pathOf } from "../../src/api/paths.js";
import { NotFoundError } from "../../src/kube/errors.js";
import type { Controller } from "../../src/runtime/controller.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, plane, planeCluster } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

const GUIDE = resolve(import.meta.dirname, "../../docs/guides/multicluster.md");
const ENV = `guide${process.pid % 100000}`;
const TENANT_NS = `${ENV}-yakuza`;
const tenants = { tenant1: planeCluster("tenant1"), tenant2: planeCluster("tenant2") };
let h: KustomizeHarness;
let git: GitHttpServer;
const controllers: Controller[] = [];
const work = makeWorkDir("flotilla-guide-");
const env: NodeJS.ProcessEnv = {};

const blocks = [...readFileSync(GUIDE, "utf8").matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

function bash(script: string, cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], { cwd, env: { ...process.env, ...env } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.once("error", fail);
    child.once("close", (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, out });
    });
  });
}

/** Block i of the guide: the first runs where the guide starts, the others inside the clone it makes. */
async function step(i: number): Promise<string> {
  const r = await bash(blocks[i]!, i === 0 ? work : join(work, "fleet-infra"));
  expect(r.code, `guide block ${i + 1}:\n${blocks[i]}\n${r.out}`).toBe(0);
  return r.out;
}

async function app(t: keyof typeof tenants): Promise<string | undefined> {
  try {
    const cm = await tenants[t].client.get<{ data: { from: string } }>(
      `/api/v1/namespaces/${TENANT_NS}/configmaps/azure-vote`,
    );
    return cm.data.from;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "guide" });
  await serveFleetCrds(h);
  git = await startGitHttpServer();
  const fleet = await git.createRepo("fleet-infra");
  await fleet.commit({ "README.md": "fleet-infra\n" }, "init");
  // The guide pushes to it: git-http-backend accepts pushes without a login only when the repository says so.
  await bash(`git --git-dir "${fleet.path}" config http.receivepack true`, work);
  const yakuza = await git.createRepo("yakuza");
  const cm = (from: string) =>
    ["apiVersion: v1", "kind: ConfigMap", "metadata:", "  name: azure-vote", "data:", `  from: ${from}`, ""].join("\n");
  await yakuza.commit({ "README.md": "yakuza\n" }, "init");
  await yakuza.commit(
    { "azure-vote/base/cm.yaml": cm("base"), "azure-vote/tenant1/cm.yaml": cm("tenant1") },
    "azure-vote for dev",
    { branch: "dev" },
  );
  // The fleet's controllers in-process beside the harness's source and Kustomization controllers.
  // A short grace period: the guide's remove-cluster step waits for it (decision 0031).
  controllers.push(...(await startFleetControllers(h, undefined, 2_000)));
  // `flotilla` on PATH is the built CLI; git commits with a test identity.
  const bin = join(work, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "flotilla"), `#!/bin/sh\nexec "${process.execPath}" "${resolve("bin/flotilla.js")}" "$@"\n`);
  chmodSync(join(bin, "flotilla"), 0o755);
  Object.assign(env, {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: work,
    GIT_AUTHOR_NAME: "Guide",
    GIT_AUTHOR_EMAIL: "guide@flotilla.invalid",
    GIT_COMMITTER_NAME: "Guide",
    GIT_COMMITTER_EMAIL: "guide@flotilla.invalid",
    ENV,
    MGMT: plane("management").kubeconfig,
    FLEET_URL: fleet.url,
    YAKUZA_URL: yakuza.url,
    TENANT1_KUBECONFIG: plane("tenant1").kubeconfig,
    TENANT2_KUBECONFIG: plane("tenant2").kubeconfig,
  });
}, 180_000);

afterAll(async () => {
  // The environment's fleet objects in dependency order (the app, then the tenant's namespace), each
  // child pruning its cluster as it goes; then the environment itself.
  const fleetObjects = () => h.mgmt.client.listAll<KubeObject>(pathOf(SERVED_KINDS.FleetKustomization, ENV));
  const children = () => h.mgmt.client.listAll<KubeObject>(pathOf(SERVED_KINDS.Kustomization, ENV));
  await h.mgmt.client
    .patch(pathOf(SERVED_KINDS.Kustomization, ENV, ENV), "merge", { spec: { suspend: true } })
    .catch(() => {});
  for (const name of ["yakuza-azure-vote", "yakuza-namespace"]) {
    await h.mgmt.client.delete(pathOf(SERVED_KINDS.FleetKustomization, ENV, name)).catch(() => {});
    await eventually(
      `${name}'s children gone`,
      async () => !(await children()).items.some((k) => k.metadata.name.startsWith(`${name}-`)),
      120_000,
    ).catch(() => {});
  }
  expect((await fleetObjects()).items.map((o) => o.metadata.name)).toEqual([]);
  for (const c of controllers) await c.stop();
  await h.mgmt.client.delete(`/api/v1/namespaces/${ENV}`).catch(() => {});
  await git?.close();
  await h?.stop();
}, 300_000);

describe("docs/guides/multicluster.md", () => {
  it("runs as written: an environment, two remote clusters, a tenant's app on both, a re-run, a cluster removed", async () => {
    expect(blocks).toHaveLength(5);
    await step(0);
    expect((await h.mgmt.client.get<KubeObject>(pathOf(SERVED_KINDS.GitRepository, ENV, "fleet"))).spec).toMatchObject({
      url: env.FLEET_URL,
    });

    const added = await step(1);
    expect(added).toContain(`kubeconfig secret '${ENV}/tenant1-kubeconfig' written on the management cluster`);
    // The kubeconfigs are on the management cluster, not in the repository.
    const pushed = await bash("git log -p --all", join(work, "fleet-infra"));
    expect(pushed.out).not.toContain("client-key-data");
    expect(pushed.out).toContain(`environments/${ENV}/clusters/tenant1.yaml`);
    for (const t of ["tenant1", "tenant2"])
      await eventually(
        `Cluster ${t} Ready`,
        async () =>
          (
            await h.mgmt.client.get<KubeObject & { status?: { conditions?: { type: string; status: string }[] } }>(
              pathOf(SERVED_KINDS.Cluster, ENV, t),
            )
          ).status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"),
        60_000,
      );

    await step(2);
    await eventually(
      "azure-vote on tenant1 from its own directory",
      async () => (await app("tenant1")) === "tenant1",
      180_000,
    );
    await eventually("azure-vote on tenant2 from base", async () => (await app("tenant2")) === "base", 180_000);

    const again = await step(3);
    expect(again).toContain("nothing to change: the repository already says so");
    expect(again).not.toMatch(/✚|✎|✗/);
    expect(again.split("\n").filter((l) => /^ ?[MADR?]{1,2} /.test(l))).toEqual([]);

    await step(4);
    // tenant2's children go, the app's first (pruned as the tenant, while its role binding is still there).
    await eventually(
      "tenant2's children gone",
      async () =>
        (
          await h.mgmt.client.listAll<KubeObject>(pathOf(SERVED_KINDS.Kustomization, ENV), {
            labelSelector: "fleet.flotilla.dev/cluster=tenant2",
          })
        ).items.length === 0,
      180_000,
    );
    expect(await app("tenant2")).toBeUndefined();
    await eventually(
      `namespace ${TENANT_NS} removed from tenant2`,
      async () => {
        try {
          const ns = await tenants.tenant2.client.get<KubeObject>(`/api/v1/namespaces/${TENANT_NS}`);
          return !!ns.metadata.deletionTimestamp;
        } catch (err) {
          return err instanceof NotFoundError;
        }
      },
      120_000,
    );
    expect(await app("tenant1")).toBe("tenant1");
  }, 900_000);
});
