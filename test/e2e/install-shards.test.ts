// `flotilla install --shards 2` (Flux's sharding): the three controller Deployments it writes, each run as
// a real `flotilla controller` process with that Deployment's own arguments on the shared fleet, split the
// objects by the sharding.fluxcd.io/key label — each GitRepository's artifact is advertised at the
// artifact Service of the process that reconciled it, positive evidence of which one did. Then a
// FluxInstance asking for those shards states DistributionMapped False until the Deployments are there,
// True (in effect) once they are. Each process also keeps the harness's own label (flotilla.dev/shard=<ns>)
// so it touches no other test's objects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/api/meta/object.js";
import { parseYamlDocuments } from "../../src/kustomize/yaml/parse.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { runCli } from "../support/cli.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { startGitHttpServer } from "../support/git-http-server.js";

const cluster = planeCluster("management");
const git = await startGitHttpServer();
afterAll(() => git.close());
const KEY = "sharding.fluxcd.io/key";

type Deployment = KubeObject & { spec: { template: { spec: { containers: { args: string[] }[] } } } };
type Status = {
  status?: {
    artifact?: { url: string };
    conditions?: { type: string; status: string; reason: string; message: string }[];
  };
};
const selectorOf = (d: Deployment) =>
  d.spec.template.spec.containers[0]!.args.find((a) => a.startsWith("--watch-label-selector="))!
    .split("=")
    .slice(1)
    .join("=");

let ns: string;
let deployments: Deployment[];
const controllers: ControllerProcess[] = [];

beforeAll(async () => {
  ns = await testNamespace(cluster.client, "shards");
  const exported = await runCli(["install", "--export", "--shards", "2", "--namespace", ns]);
  expect(exported.code, exported.stderr).toBe(0);
  deployments = parseYamlDocuments(exported.stdout, "install.yaml")
    .map((d) => d.value as unknown as Deployment)
    .filter((o) => o.kind === "Deployment");
  for (const d of deployments)
    controllers.push(
      startController({
        namespace: ns,
        shard: ns,
        storagePath: makeWorkDir("flotilla-install-shards-"),
        leadingArgs: d.spec.template.spec.containers[0]!.args.slice(1),
        // The Deployment's selector, and the harness's label that keeps the process to this test's objects.
        extraArgs: ["--watch-label-selector", `flotilla.dev/shard=${ns},${selectorOf(d)}`],
      }),
    );
});
afterAll(async () => {
  for (const c of controllers) c.child.kill("SIGTERM");
  await Promise.all(controllers.map((c) => c.exited()));
});

describe("flotilla install --shards 2", () => {
  it("writes the main controller for unlabelled objects and one Deployment per shard", () => {
    expect(deployments.map((d) => [d.metadata.name, selectorOf(d)])).toEqual([
      ["flotilla-controller", `!${KEY}`],
      ["flotilla-controller-shard1", `${KEY} in (shard1)`],
      ["flotilla-controller-shard2", `${KEY} in (shard2)`],
    ]);
  });

  it("splits objects by the shard label: each is reconciled by its own shard's controller", async () => {
    const repo = await git.createRepo(`shards-${ns}`);
    await repo.commit({ "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n" }, "one");
    const expected: Record<string, string> = {
      main: `http://flotilla-artifacts.${ns}.svc.cluster.local./`,
      shard1: `http://flotilla-artifacts-shard1.${ns}.svc.cluster.local./`,
      shard2: `http://flotilla-artifacts-shard2.${ns}.svc.cluster.local./`,
    };
    for (const name of Object.keys(expected))
      await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
        apiVersion: "source.toolkit.fluxcd.io/v1",
        kind: "GitRepository",
        metadata: {
          name,
          namespace: ns,
          labels: { "flotilla.dev/shard": ns, ...(name === "main" ? {} : { [KEY]: name }) },
        },
        spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
      });
    const urls = await eventually(
      "the three GitRepositories' artifacts",
      async () => {
        const got: Record<string, string> = {};
        for (const name of Object.keys(expected)) {
          const o = await cluster.client.get<Status>(
            `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/${name}`,
          );
          if (!o.status?.artifact) return undefined;
          got[name] = o.status.artifact.url.slice(0, expected[name]!.length);
        }
        return got;
      },
      120_000,
    );
    expect(urls).toEqual(expected);
  });

  it("makes a FluxInstance's spec.sharding DistributionMapped only once the shard Deployments are there", async () => {
    const path = `/apis/fluxcd.controlplane.io/v1/namespaces/${ns}/fluxinstances`;
    await cluster.client.create(path, {
      apiVersion: "fluxcd.controlplane.io/v1",
      kind: "FluxInstance",
      metadata: { name: "flux", namespace: ns, labels: { "flotilla.dev/shard": ns } },
      spec: {
        distribution: { version: "2.x", registry: "ghcr.io/fluxcd" },
        sharding: { key: KEY, shards: ["shard1", "shard2"] },
      },
    });
    const mapped = (reason: string) => async () => {
      const c = (await cluster.client.get<Status>(`${path}/flux`)).status?.conditions?.find(
        (x) => x.type === "DistributionMapped",
      );
      return c?.reason === reason ? c : undefined;
    };
    const before = await eventually("DistributionMapped ShardsNotDeployed", mapped("ShardsNotDeployed"), 90_000);
    expect(before.status).toBe("False");
    expect(before.message).toContain(
      "no Deployment selects shard1, shard2; deploy it with flotilla install --shards shard1,shard2",
    );
    // The Deployments as `flotilla install` applies them (no pod of them runs on this fleet: none is needed).
    for (const d of deployments)
      await cluster.client.create(`/apis/apps/v1/namespaces/${ns}/deployments`, {
        ...d,
        metadata: { ...d.metadata, namespace: ns },
      });
    await cluster.client.patch(`${path}/flux`, "merge", {
      metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": String(Date.now()) } },
    });
    const after = await eventually("DistributionMapped Mapped", mapped("Mapped"), 90_000);
    expect(after.status).toBe("True");
    expect(after.message).toContain(
      `sharding by ${KEY}: in effect: this controller runs --watch-label-selector=flotilla.dev/shard=${ns},!${KEY}; shard1 by Deployment flotilla-controller-shard1`,
    );
  });
});
