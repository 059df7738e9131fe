// sharding.shards renders Flux's sharding model: the main controller takes the objects without the
// key, one Deployment per shard those labelled with it, each with its own Services (its artifacts are
// fetched from its own server) and pods no other Deployment or Service selects; the receivers of all
// stay open to webhooks from other namespaces.
import { describe, expect, it } from "vitest";
import { runHelm } from "../../../src/binaries/helm/run.js";
import { CHART, helmTemplate } from "./render.js";

type Deployment = {
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: { containers: { args: string[] }[] } };
  };
};
type Service = { spec: { selector: Record<string, string> } };

describe("charts/flotilla with sharding.shards", () => {
  it("renders the main controller and one Deployment, artifact and receiver Service per shard", async () => {
    const objects = await helmTemplate([
      "--set",
      "sharding.shards={shard1,shard2}",
      "--set",
      "extraArgs={--concurrent=8}",
    ]);
    const deployment = (name: string) => objects[`apps/v1/Deployment/flux-system/${name}`] as unknown as Deployment;
    const service = (name: string) => objects[`v1/Service/flux-system/${name}`] as unknown as Service;
    const args = (name: string) => deployment(name).spec.template.spec.containers[0]!.args;

    expect(args("flotilla-controller")).toContain("--watch-label-selector=!sharding.fluxcd.io/key");
    for (const shard of ["shard1", "shard2"]) {
      const name = `flotilla-controller-${shard}`;
      expect(args(name)).toContain(`--watch-label-selector=sharding.fluxcd.io/key in (${shard})`);
      expect(args(name)).toContain(
        `--storage-adv-addr=http://flotilla-artifacts-${shard}.flux-system.svc.cluster.local.`,
      );
      expect(args(name).at(-1)).toBe("--concurrent=8");
      expect(deployment(name).spec.selector.matchLabels).toEqual({ app: name });
      expect(deployment(name).spec.template.metadata.labels).toEqual({ app: name });
      expect(service(`flotilla-artifacts-${shard}`).spec.selector).toEqual({ app: name });
      expect(service(`webhook-receiver-${shard}`).spec.selector).toEqual({ app: name });
    }
    expect(service("flotilla-artifacts").spec.selector).toEqual({ app: "flotilla-controller" });
    const webhooks = objects["networking.k8s.io/v1/NetworkPolicy/flux-system/allow-webhooks"] as unknown as {
      spec: { podSelector: unknown };
    };
    expect(webhooks.spec.podSelector).toEqual({
      matchExpressions: [
        {
          key: "app",
          operator: "In",
          values: ["flotilla-controller", "flotilla-controller-shard1", "flotilla-controller-shard2"],
        },
      ],
    });
  }, 60_000);

  it("takes another shard key", async () => {
    const objects = await helmTemplate(["--set", "sharding.key=example.com/shard,sharding.shards={a}"]);
    const a = objects["apps/v1/Deployment/flux-system/flotilla-controller-a"] as unknown as Deployment;
    expect(a.spec.template.spec.containers[0]!.args).toContain("--watch-label-selector=example.com/shard in (a)");
  }, 60_000);

  it("refuses a shard name that cannot name a Deployment, saying which value", async () => {
    const err = await runHelm(["template", "flotilla", CHART, "--set", "sharding.shards={Shard_1}"]).catch(
      (e: Error) => e,
    );
    expect(String(err)).toContain(`sharding.shards: "Shard_1" is not a DNS label`);
  }, 60_000);
});
