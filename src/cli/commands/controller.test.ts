// The controller must accept exactly the arguments `flotilla install` writes into its Deployment, in
// Flux's flag syntax (`--flag`, `--flag=true`, `--flag=false`).
import { describe, expect, it } from "vitest";
import { installManifests } from "../../install/manifests.js";
import { controllerCommand } from "./controller.js";

function deploymentArgs(multiTenant: boolean): string[] {
  const objects = installManifests({ namespace: "flux-system", image: "x", version: "1", multiTenant });
  const deployment = objects.find((o) => o.kind === "Deployment") as unknown as {
    spec: { template: { spec: { containers: { args: string[] }[] } } };
  };
  return deployment.spec.template.spec.containers[0]!.args;
}

/** Parses `args` as `flotilla <args>` would, capturing the controller's options instead of starting it. */
async function parse(args: string[]): Promise<Record<string, unknown>> {
  const cmd = controllerCommand().exitOverride();
  let captured: Record<string, unknown> = {};
  cmd.action((opts: Record<string, unknown>) => {
    captured = opts;
  });
  await cmd.parseAsync(args.slice(1), { from: "user" });
  return captured;
}

describe("flotilla controller flags", () => {
  it("accepts the Deployment arguments of a plain install", async () => {
    const args = deploymentArgs(false);
    expect(args[0]).toBe("controller");
    const opts = await parse(args);
    expect(opts.noCrossNamespaceRefs).toBe(false);
    expect(opts.storagePath).toBe("/data");
  });

  it("accepts the Deployment arguments of a --multi-tenant install (Flux's lockdown flags with =true)", async () => {
    const opts = await parse(deploymentArgs(true));
    expect(opts.noCrossNamespaceRefs).toBe(true);
    expect(opts.noRemoteBases).toBe(true);
    expect(opts.defaultServiceAccount).toBe("default");
  });

  it.each([
    [["--no-cross-namespace-refs"], true],
    [["--no-cross-namespace-refs=true"], true],
    [["--no-cross-namespace-refs=false"], false],
    [[], false],
  ])("takes a boolean flag as Go's pflag does: %j → %s", async (flags, value) => {
    expect((await parse(["controller", ...flags])).noCrossNamespaceRefs).toBe(value);
  });

  it("takes the webhook receiver's address as --receiver-addr, or notification-controller's --receiverAddr", async () => {
    expect((await parse(["controller"])).receiverAddr).toBe(":9292");
    expect((await parse(["controller", "--receiver-addr=127.0.0.1:0"])).receiverAddr).toBe("127.0.0.1:0");
    expect((await parse(["controller", "--receiverAddr", ":9393"])).receiverAddr).toBe(":9393");
    expect((await parse(deploymentArgs(false))).receiverAddr).toBe(":9292");
  });

  it("refuses a boolean flag with a value that is not true or false, naming it", async () => {
    await expect(parse(["controller", "--enable-leader-election=maybe"])).rejects.toThrow(
      '--enable-leader-election takes true or false, got "maybe"',
    );
  });
  it("takes every flag the README lists in Flux's --flag=value form", async () => {
    const opts = await parse([
      "controller",
      "--concurrent=20",
      "--no-cross-namespace-refs=true",
      "--default-service-account=default",
      "--watch-label-selector=sharding.fluxcd.io/key=shard1",
      "--kube-api-qps=50",
      "--kube-api-burst=300",
      "--requeue-dependency=30s",
      "--feature-gates=StrictPostBuildSubstitutions=false",
      "--enable-leader-election=false",
      "--leader-election-lease-duration=35s",
      "--leader-election-renew-deadline=30s",
      "--leader-election-retry-period=5s",
    ]);
    expect(opts).toMatchObject({
      concurrent: "20",
      noCrossNamespaceRefs: true,
      defaultServiceAccount: "default",
      watchLabelSelector: "sharding.fluxcd.io/key=shard1",
      kubeApiQps: "50",
      kubeApiBurst: "300",
      requeueDependency: "30s",
      featureGates: "StrictPostBuildSubstitutions=false",
      enableLeaderElection: false,
      leaderElectionLeaseDuration: "35s",
    });
  });
});
