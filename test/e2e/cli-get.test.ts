// `flotilla get` as a user runs it (the built CLI, a real process) against the management plane:
// flux's own goldens byte for byte for the same objects (test/fixtures/flux-cli), then the flags
// flux has and the errors it prints.
import { beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/api/meta/object.js";
import { runCli } from "../support/cli.js";
import { createFluxObjects, fluxGolden } from "../support/flux-cli-fixtures.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";

const mgmt = planeCluster("management");
const kubeconfig = () => plane("management").kubeconfig;
const golden = (name: string) => fluxGolden(`get/${name}`, "");

const get = (...args: string[]) => runCli(["get", ...args, "--kubeconfig", kubeconfig()]);

let ns: string;
let statusNs: string;

beforeAll(async () => {
  ns = await testNamespace(mgmt.client, "cli-get");
  statusNs = await testNamespace(mgmt.client, "cli-get-status");
  await createFluxObjects(mgmt, "get/objects.yaml", ns);
  await createFluxObjects(mgmt, "get/status_objects.yaml", statusNs);
}, 60_000);

describe("flotilla get, against flux's goldens", () => {
  it.each([
    ["", "get.golden"],
    ["-l sharding.fluxcd.io/key=shard1", "get_label_one.golden"],
    ["-l sharding.fluxcd.io/key notin (shard1, shard2)", "get_label_two.golden"],
  ])("prints `get sources git %s` as flux does", async (selector, file) => {
    const args = selector ? ["-l", selector.slice(3)] : [];
    const r = await get("sources", "git", ...args, "-n", ns);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(golden(file));
  });

  it.each([
    ["Ready=True", "get_status_ready_true.golden"],
    ["Ready=False", "get_status_ready_false.golden"],
    ["Ready!=True", "get_status_ready_not_true.golden"],
  ])("filters with --status-selector %s as flux does", async (selector, file) => {
    const r = await get("sources", "git", "--status-selector", selector, "-n", statusNs);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(golden(file));
  });
});

describe("flotilla get, flags and errors", () => {
  it("-A prepends NAMESPACE; get all names each object <kind>/<name> and follows each table with a blank line", async () => {
    const r = await get("all", "-A", "-l", "sharding.fluxcd.io/key=shard2");
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/^NAMESPACE\s*\tNAME\s*\tREVISION\s*\tSUSPENDED\tREADY\tMESSAGE/);
    // Other runs' namespaces may still be terminating: find this run's row.
    const ours = lines.find((l) => l.startsWith(`${ns}\t`))!;
    expect(ours.replace(/ +\t/g, "\t")).toBe(
      `${ns}\tgitrepository/podinfo-shard2\tmain@sha1:696f056d\tFalse\tTrue\tFetched revision: main@sha1:696f056d\t`,
    );
    expect(r.stdout.endsWith("\t\n\n")).toBe(true);
  });

  it("--no-header leaves the header out; -o json prints kubectl's List", async () => {
    const plain = await get("sources", "git", "podinfo", "--no-header", "-n", ns);
    expect(plain.stdout).toBe("podinfo\tmain@sha1:696f056d\tFalse\tTrue\tFetched revision: main@sha1:696f056d\t\n");
    const json = await get("sources", "git", "-o", "json", "-n", statusNs);
    const list = JSON.parse(json.stdout) as { kind: string; items: KubeObject[] };
    expect(list.kind).toBe("List");
    expect(list.items.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      "GitRepository/gr-failed",
      "GitRepository/gr-ready",
      "GitRepository/gr-unknown",
    ]);
    expect(json.stdout).toContain('\n    "items": [');
  });

  it("says what is missing, in flux's words, with exit code 1", async () => {
    const none = await get("kustomizations", "-n", ns);
    expect([none.code, none.stderr]).toEqual([1, `✗ no Kustomization objects found in "${ns}" namespace\n`]);
    const named = await get("ks", "nope", "-A");
    expect(named.stderr).toBe("✗ Kustomization object 'nope' not found in any namespace\n");
    const bad = await get("sources", "git", "--status-selector", "ready", "-n", ns);
    expect(bad.stderr).toBe("✗ expected status selector in type=status or type!=status format, but found: ready\n");
    const noConfig = await runCli(["get", "hr", "--kubeconfig", "/nonexistent/kubeconfig"]);
    expect(noConfig.stderr).toBe("✗ --kubeconfig: no file at /nonexistent/kubeconfig\n");
  });

  it("-w prints the objects, then a row for each change", async () => {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [
      "bin/flotilla.js",
      "get",
      "sources",
      "git",
      "gr-unknown",
      "-w",
      "-n",
      statusNs,
      "--kubeconfig",
      kubeconfig(),
    ]);
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    try {
      await eventually("the first row", async () => out.includes("reconciliation in progress"), 60_000, 200);
      await mgmt.client.patch(
        `/apis/source.toolkit.fluxcd.io/v1/namespaces/${statusNs}/gitrepositories/gr-unknown/status`,
        "merge",
        {
          status: {
            conditions: [
              {
                type: "Ready",
                status: "False",
                reason: "Failed",
                message: "now it failed",
                lastTransitionTime: "2021-07-20T00:48:16Z",
              },
            ],
          },
        },
      );
      await eventually("the changed row", async () => out.includes("now it failed"), 60_000, 200);
      expect(out.split("\n").filter((l) => l.startsWith("NAME"))).toHaveLength(1);
    } finally {
      child.kill("SIGINT");
    }
  });
});
