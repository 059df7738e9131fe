import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { describe, expect, it } from "vitest";
import { addApp, addCluster, addTenant, initEnv, removeCluster } from "./procedures.js";
import { NotOurFile, WorkingTree } from "./written-files.js";

const fresh = () => mkdtempSync(join(tmpdir(), "flotilla-fleet-repo-"));
const run = (root: string, step: (t: WorkingTree) => void) => {
  const tree = new WorkingTree(root);
  step(tree);
  tree.save();
  return tree.changes;
};
const cluster = { name: "tenant1", labels: { region: "eu" }, secretRef: { name: "tenant1-kubeconfig", key: "value" } };

describe("fleet repository procedures", () => {
  it("write an environment, a cluster, a tenant and an app, and a second run changes nothing", () => {
    const root = fresh();
    const all = (t: WorkingTree) => {
      initEnv(t, "dev");
      addCluster(t, "dev", cluster);
      addTenant(t, "dev", "yakuza", "https://git.example/yakuza.git", "dev");
      addApp(t, "dev", "yakuza", "azure-vote");
    };
    run(root, all);
    const c = parse(readFileSync(join(root, "environments/dev/clusters/tenant1.yaml"), "utf8"));
    expect(c).toMatchObject({
      kind: "Cluster",
      metadata: {
        name: "tenant1",
        namespace: "dev",
        labels: { region: "eu", "fleet.flotilla.dev/environment": "dev" },
      },
      spec: { kubeConfig: { secretRef: { name: "tenant1-kubeconfig", key: "value" } } },
    });
    expect(parse(readFileSync(join(root, "environments/dev/clusters/kustomization.yaml"), "utf8")).resources).toEqual([
      "tenant1.yaml",
    ]);
    const app = parse(readFileSync(join(root, "environments/dev/tenants/yakuza/azure-vote.yaml"), "utf8"));
    expect(app).toMatchObject({
      kind: "FleetKustomization",
      spec: {
        clusterSelector: { matchLabels: { "fleet.flotilla.dev/environment": "dev" } },
        fallbackPath: "./azure-vote/base",
        template: {
          spec: {
            path: "./azure-vote/${cluster_name}",
            targetNamespace: "dev-yakuza",
            serviceAccountName: "yakuza",
            sourceRef: { kind: "GitRepository", name: "yakuza" },
          },
        },
      },
    });
    const remote = parseAllDocuments(
      readFileSync(join(root, "environments/dev/remote/tenants/yakuza/namespace.yaml"), "utf8"),
    ).map((d) => d.toJS() as { kind: string });
    expect(remote.map((d) => d.kind)).toEqual(["Namespace", "RoleBinding"]);
    expect(run(root, all).every((c) => c.action === "unchanged")).toBe(true);
  });

  it("never overwrites or deletes a file someone else wrote, and a refused procedure writes nothing", () => {
    const root = fresh();
    run(root, (t) => initEnv(t, "dev"));
    const mine = join(root, "environments/dev/clusters/tenant1.yaml");
    writeFileSync(mine, "# hand-written\n");
    expect(() => run(root, (t) => addCluster(t, "dev", cluster))).toThrow(NotOurFile);
    expect(readFileSync(mine, "utf8")).toBe("# hand-written\n");
    // The kustomization.yaml was not updated either: the refused procedure changed nothing.
    expect(parse(readFileSync(join(root, "environments/dev/clusters/kustomization.yaml"), "utf8")).resources).toEqual(
      [],
    );
    expect(() => run(root, (t) => removeCluster(t, "dev", "tenant1"))).toThrow(/not written by flotilla/);
    expect(existsSync(mine)).toBe(true);
  });

  it("removes a cluster's file and its listing, leaving the rest", () => {
    const root = fresh();
    run(root, (t) => {
      initEnv(t, "dev");
      addCluster(t, "dev", cluster);
      addCluster(t, "dev", { ...cluster, name: "tenant2" });
    });
    const changes = run(root, (t) => removeCluster(t, "dev", "tenant2"));
    expect(changes.filter((c) => c.action !== "unchanged").map((c) => [c.action, c.path])).toEqual([
      ["removed", "environments/dev/clusters/tenant2.yaml"],
      ["updated", "environments/dev/clusters/kustomization.yaml"],
    ]);
    expect(existsSync(join(root, "environments/dev/clusters/tenant1.yaml"))).toBe(true);
  });

  it("refuses names that are not DNS labels and steps out of order, naming what to run", () => {
    const root = fresh();
    expect(() => run(root, (t) => initEnv(t, "Dev_1"))).toThrow(/environment "Dev_1" must be a DNS label/);
    expect(() => run(root, (t) => addCluster(t, "qa", cluster))).toThrow(/run flotilla fleet init-env qa first/);
    run(root, (t) => initEnv(t, "qa"));
    expect(() => run(root, (t) => addApp(t, "qa", "yakuza", "web"))).toThrow(
      /run flotilla fleet add-tenant yakuza --env qa/,
    );
  });
});
