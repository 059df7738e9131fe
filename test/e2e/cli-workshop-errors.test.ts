// The Flux multi-tenancy workshop's first error, and a source on a branch that does not exist yet, as
// a platform engineer meets them with the CLI: on a cluster bootstrapped from Git, `create kustomization
// tenants … --export >> clusters/CLOUDY/tenants.yaml` typed twice and pushed → `get all` names the
// duplicated object *and the file* (flux names neither file nor fix); the file fixed → `reconcile ks
// flux-system --with-source` → Ready. Then `create source git` on a missing branch → names the branch;
// the branch pushed → `reconcile source git` recovers.
import { beforeAll, describe, expect, it } from "vitest";
import { type BootstrapEnv, startBootstrapEnv } from "../support/bootstrap-env.js";

let env: BootstrapEnv;
const tenantsKs = (path: string, interval: string) =>
  env.ok([
    "create",
    "kustomization",
    "tenants",
    `--namespace=${env.ns}`,
    "--source=GitRepository/flux-system",
    "--path",
    path,
    "--prune",
    `--interval=${interval}`,
    env.shard,
    "--export",
  ]);
const configMap = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${env.ns}\ndata:\n  tenant: ${name}\n`;

beforeAll(async () => {
  env = await startBootstrapEnv("workshop");
  env.kustomizations.push([env.ns, "tenants"]);
  await env.fleet.commit(
    {
      "tenants/test/kustomization.yaml": "resources:\n- rocky.yaml\n",
      "tenants/test/rocky.yaml": configMap("rocky-test"),
      "tenants/prod/kustomization.yaml": "resources:\n- rocky.yaml\n",
      "tenants/prod/rocky.yaml": configMap("rocky-prod"),
    },
    "tenants",
  );
  const boot = await env.bootstrap("clusters/CLOUDY");
  expect(boot.code, boot.stderr).toBe(0);
}, 300_000);

describe("the workshop's first error", () => {
  it("tenants.yaml with the same Kustomization twice: get all names the object and the file; fixed, it reconciles", async () => {
    const test = await tenantsKs("./tenants/test", "1m");
    const prod = await tenantsKs("./tenants/prod", "3m");
    await env.fleet.commit({ "clusters/CLOUDY/tenants.yaml": test + prod }, "tenants for test and prod");

    const failed = await env.cli(["reconcile", "ks", "flux-system", "--with-source", "-n", env.ns]);
    expect(failed.code).toBe(1);
    const all = await env.cli(["get", "all", "-n", env.ns]);
    expect(all.code, all.stderr).toBe(0);
    const row = all.stdout.split("\n").find((l) => l.startsWith("kustomization/flux-system"))!;
    const cells = row.split("\t").map((c) => c.trim());
    expect(cells[3]).toBe("False");
    expect(cells[4]).toContain("Kustomization.v1.kustomize.toolkit.fluxcd.io/tenants");
    expect(cells[4]).toContain("tenants.yaml (documents 1 and 2)");
    expect(cells[4]).toContain("remove one of them");

    // Fixed as the workshop does next: one Kustomization per tenant, each with its own name.
    const fixed = prod.replace("name: tenants", "name: tenants-prod") + test;
    env.kustomizations.push([env.ns, "tenants-prod"]);
    await env.fleet.commit({ "clusters/CLOUDY/tenants.yaml": fixed }, "one Kustomization per tenant");
    const ok = await env.cli(["reconcile", "ks", "flux-system", "--with-source", "-n", env.ns]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/✔ applied revision main@sha1:[0-9a-f]{40}/);
    const after = await env.ok(["get", "ks", "-n", env.ns]);
    for (const name of ["flux-system", "tenants", "tenants-prod"])
      expect(after).toMatch(new RegExp(`^${name}\\s*\\tmain@sha1:[0-9a-f]{8}\\s*\\tFalse\\s*\\tTrue`, "m"));
  });
});

describe("a GitRepository on a branch that does not exist yet", () => {
  it("create source git names the branch; pushed, reconcile source git recovers", async () => {
    const created = await env.cli([
      "create",
      "source",
      "git",
      "rocky",
      `--url=${env.fleet.url}`,
      "--branch=rocky-env",
      "--secret-ref=flux-system",
      env.shard,
      "-n",
      env.ns,
      "--timeout=2m",
    ]);
    expect(created.code).toBe(1);
    expect(created.stderr).toContain(
      "✚ generating GitRepository source\n► applying GitRepository source\n✔ GitRepository source created\n◎ waiting for GitRepository source reconciliation\n",
    );
    expect(created.stderr).toContain("rocky-env");
    const get = await env.ok(["get", "sources", "git", "rocky", "-n", env.ns]);
    expect(get).toMatch(/^rocky\s*\t\s*\tFalse\s*\tFalse\s*\t.*rocky-env/m);

    await env.fleet.commit({ "rocky/README.md": "rocky\n" }, "rocky's branch", { branch: "rocky-env" });
    const sha = await env.fleet.head("rocky-env");
    const recovered = await env.cli(["reconcile", "source", "git", "rocky", "-n", env.ns]);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(recovered.stderr).toContain(`✔ fetched revision rocky-env@sha1:${sha}`);
  });

  it("create source git again with the same flags updates the object and waits for it Ready", async () => {
    const again = await env.cli([
      "create",
      "source",
      "git",
      "rocky",
      `--url=${env.fleet.url}`,
      "--branch=rocky-env",
      "--secret-ref=flux-system",
      env.shard,
      "-n",
      env.ns,
      "--interval=5m",
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("✔ GitRepository source updated");
    expect(again.stderr).toMatch(/✔ fetched revision: rocky-env@sha1:[0-9a-f]{40}\n$/);
  });
});
