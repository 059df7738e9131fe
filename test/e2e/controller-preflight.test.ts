// `flotilla controller` started against a cluster that lacks what it needs says so in one line and
// exits, instead of retrying leader election for ever; with --install-crds it creates what it needs.
import { beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { runCli } from "../support/cli.js";
import { adminClient, eventually, plane, planeCluster } from "../support/fleet-context.js";
import { startController } from "../support/controller-process.js";
import { randomBytes } from "node:crypto";
import { ensureFluxCrds } from "../support/flux-cli-fixtures.js";
import { leaderElectionId } from "../../src/runtime/leader-election.js";

// The management plane has every CRD (whichever test file ran first): only the namespace is missing there.
beforeAll(() => ensureFluxCrds(planeCluster("management")), 120_000);

const run = (planeName: string, ...args: string[]) =>
  runCli(
    [
      "controller",
      "--kubeconfig",
      plane(planeName).kubeconfig,
      "--storage-path",
      makeWorkDir("flotilla-preflight-"),
      "--storage-addr",
      "127.0.0.1:0",
      "--health-addr",
      "127.0.0.1:0",
      ...args,
    ],
    { timeoutMs: 60_000 },
  );

describe("flotilla controller preflight", () => {
  it("names the missing runtime namespace and how to fix it, exit 1", async () => {
    const r = await run("management", "--runtime-namespace", "no-such-ns-preflight");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '✗ management: namespace "no-such-ns-preflight" does not exist (the leader-election Lease lives there): create it, pass --runtime-namespace with an existing one, or start with --install-crds to have flotilla create it\n',
    );
  });

  // Tenant planes are workload clusters: no test installs the Flux CRDs there.
  it("names the missing Flux CRDs and how to install them, exit 1", async () => {
    const r = await run("tenant2", "--runtime-namespace", "default");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /✗ tenant2: flotilla's CRDs are not installed \(no GitRepository, HelmRepository, HelmChart, OCIRepository, Kustomization, HelmRelease, Receiver, Alert, Provider, ResourceSet, ResourceSetInputProvider, FluxInstance, FluxReport, Cluster, FleetKustomization, FleetHelmRelease\): run `flotilla install`, or start the controller with --install-crds\n/,
    );
  });

  // Stopped at once, while its controllers are still starting: a SIGTERM then used to wait out the informers'
  // 60 s sync timeout, past a pod's 30 s grace period.
  it("with --install-crds creates the runtime namespace and runs, and stops on SIGTERM while starting within a pod's grace period", async () => {
    const ns = `preflight-${randomBytes(3).toString("hex")}`;
    const c = startController({ namespace: ns, shard: ns, storagePath: makeWorkDir("flotilla-preflight-") });
    let stoppedInMs = Infinity;
    try {
      await c.healthUrl();
      const created = await adminClient("management").get<{ metadata: { name: string } }>(`/api/v1/namespaces/${ns}`);
      expect(created.metadata.name).toBe(ns);
      await eventually("the Lease in the new namespace", () =>
        adminClient("management")
          .get(`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/${leaderElectionId(`flotilla.dev/shard=${ns}`)}`)
          .then(() => true),
      );
    } finally {
      const signalled = Date.now();
      c.child.kill("SIGTERM");
      await c.exited();
      stoppedInMs = Date.now() - signalled;
      await adminClient("management").delete(`/api/v1/namespaces/${ns}`);
    }
    expect(stoppedInMs).toBeLessThan(30_000);
  });
});
