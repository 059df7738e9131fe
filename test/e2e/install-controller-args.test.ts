// The controller starts with exactly the arguments `flotilla install --export` writes into its Deployment
// (plain and --multi-tenant, Flux's `--flag=true` syntax included) and reconciles. Only the addresses and
// paths that make sense inside a cluster (storage path, listen addresses, lease namespace) are laid over
// with loopback ones, after the Deployment's own arguments, as a later flag wins.
import { afterAll, describe, expect, it } from "vitest";
import { parseYamlDocuments } from "../../src/kustomize/yaml/parse.js";
import { runCli } from "../support/cli.js";
import { startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { startGitHttpServer } from "../support/git-http-server.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const cluster = planeCluster("management");
const git = await startGitHttpServer();
afterAll(() => git.close());

interface Container {
  args: string[];
}

async function deploymentArgs(extra: string[]): Promise<string[]> {
  const exported = await runCli(["install", "--export", ...extra]);
  expect(exported.code, exported.stderr).toBe(0);
  const deployment = parseYamlDocuments(exported.stdout, "install.yaml")
    .map((d) => d.value as unknown as { kind: string; spec?: { template: { spec: { containers: Container[] } } } })
    .find((o) => o.kind === "Deployment")!;
  const args = deployment.spec!.template.spec.containers[0]!.args;
  expect(args[0]).toBe("controller");
  return args.slice(1);
}

type Status = { status?: { artifact?: { revision: string }; conditions?: { type: string; reason: string }[] } };

describe("the controller with the arguments flotilla install writes", () => {
  it.each([
    ["a plain install", [] as string[]],
    ["a --multi-tenant install", ["--multi-tenant"]],
  ])("starts and reconciles with %s", async (_what, installFlags) => {
    const leadingArgs = await deploymentArgs(installFlags);
    if (installFlags.length) expect(leadingArgs).toContain("--no-cross-namespace-refs=true");
    const ns = await testNamespace(cluster.client, "installargs");
    const controller = startController({
      namespace: ns,
      shard: ns,
      storagePath: makeWorkDir("flotilla-install-args-"),
      leadingArgs,
    });
    try {
      const repo = await git.createRepo(`install-args-${ns}`);
      const sha = await repo.commit(
        { "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n" },
        "one",
      );
      const labels = { "flotilla.dev/shard": ns };
      await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
        apiVersion: "source.toolkit.fluxcd.io/v1",
        kind: "GitRepository",
        metadata: { name: "repo", namespace: ns, labels },
        spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
      });
      await eventually(
        "the GitRepository's artifact",
        async () =>
          (await cluster.client.get<Status>(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/repo`))
            .status?.artifact?.revision === `main@sha1:${sha}`,
        90_000,
      );
      if (!installFlags.length) return;
      // The lockdown flag took effect: a sourceRef into another namespace is refused.
      await cluster.client.create(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations`, {
        apiVersion: "kustomize.toolkit.fluxcd.io/v1",
        kind: "Kustomization",
        metadata: { name: "cross", namespace: ns, labels },
        spec: {
          interval: "10m",
          path: "./app",
          prune: true,
          sourceRef: { kind: "GitRepository", name: "repo", namespace: "elsewhere" },
        },
      });
      await eventually(
        "the cross-namespace Kustomization to be refused",
        async () =>
          (
            await cluster.client.get<Status>(
              `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations/cross`,
            )
          ).status?.conditions?.find((c) => c.type === "Ready")?.reason === "AccessDenied",
        90_000,
      );
    } finally {
      controller.child.kill("SIGTERM");
      await controller.exited();
    }
  });
});
