// `flotilla bootstrap git --flux-instance`: the repository gets the Flux Operator's layout — a FluxInstance
// whose spec.sync is the repository itself, beside the components — and the cluster then reconciles itself
// through it: the FluxInstance controller creates the root GitRepository and Kustomization (named after the
// namespace, as the operator names them), and that Kustomization applies the FluxInstance from Git, as in
// d2-fleet repositories. The real controller process on the shared management plane; the test git server.
import { beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/api/meta/object.js";
import type { FluxInstance } from "../../src/api/operator/fluxinstance.js";
import { type BootstrapEnv, startBootstrapEnv } from "../support/bootstrap-env.js";
import { eventually, planeCluster } from "../support/fleet-context.js";

let env: BootstrapEnv;
beforeAll(async () => {
  env = await startBootstrapEnv("fi-boot");
  await env.fleet.commit({ "README.md": "fleet\n" }, "init");
}, 180_000);

describe("flotilla bootstrap git --flux-instance", () => {
  it("commits a FluxInstance syncing the repository; its controller creates the root sync, which applies the FluxInstance from Git", async () => {
    const { ns } = env;
    env.kustomizations.push([ns, ns]); // the FluxInstance's root Kustomization: left suspended and unpruned
    const before = await env.fleet.head();
    const boot = await env.cli([
      "bootstrap",
      "git",
      `--url=${env.fleet.url}`,
      "--allow-insecure-http",
      "--branch=main",
      "--path=clusters/fi",
      `--username=${env.credentials.username}`,
      `--password=${env.credentials.password}`,
      `-n=${ns}`,
      env.shard,
      "--flux-instance",
    ]);
    expect(boot.code, boot.stderr).toBe(0);
    expect(boot.stderr).toContain("✔ FluxInstance reconciled successfully");
    expect(boot.stderr).toContain("✔ bootstrap finished");
    expect(await env.fleet.head()).not.toBe(before);

    const mgmt = planeCluster("management");
    const fi = await mgmt.client.get<FluxInstance>(
      `/apis/fluxcd.controlplane.io/v1/namespaces/${ns}/fluxinstances/flux`,
    );
    expect(fi.spec.sync).toEqual({
      kind: "GitRepository",
      url: env.fleet.url,
      ref: "refs/heads/main",
      path: "clusters/fi",
      interval: "1m0s",
      pullSecret: "flux-system",
    });
    expect(fi.status?.history?.[0]).toMatchObject({
      lastReconciledStatus: "ReconciliationSucceeded",
      metadata: { flux: "v2.9.5" },
    });

    // The root sync the FluxInstance made applies the repository's clusters/fi — the FluxInstance among it.
    const root = await eventually(
      "root Kustomization's inventory holds the FluxInstance from Git",
      async () => {
        const k = await mgmt.client.get<KubeObject & { status?: { inventory?: { entries: { id: string }[] } } }>(
          `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations/${ns}`,
        );
        return k.status?.inventory?.entries.some((e) => e.id === `${ns}_flux_fluxcd.controlplane.io_FluxInstance`)
          ? k
          : undefined;
      },
      120_000,
      1000,
    );
    expect(root.metadata.labels).toMatchObject({ "fluxcd.controlplane.io/name": "flux" });
    const managed = await mgmt.client.get<FluxInstance>(
      `/apis/fluxcd.controlplane.io/v1/namespaces/${ns}/fluxinstances/flux`,
    );
    expect(managed.metadata.labels).toMatchObject({ "kustomize.toolkit.fluxcd.io/name": ns });
  });
});
