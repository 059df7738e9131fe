// `flotilla reconcile`, `suspend` and `resume` as a user runs them (the built CLI, a real process)
// against Kustomizations reconciled by the real controllers: the lines flux prints, its exit codes,
// and suspend/resume holding back and then applying a new commit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { eventually, plane } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

let h: KustomizeHarness;
const cli = (...args: string[]) => runCli([...args, "-n", h.ns, "--kubeconfig", plane("management").kubeconfig]);
const answering = (input: string, ...args: string[]) =>
  runCli([...args, "-n", h.ns, "--kubeconfig", plane("management").kubeconfig], { input });
const headOf = async () =>
  (
    await h.mgmt.client.get<{ status: { artifact: { revision: string } } }>(
      `/apis/source.toolkit.fluxcd.io/v1/namespaces/${h.ns}/gitrepositories/platform`,
    )
  ).status.artifact.revision;
const dataOf = async () =>
  (await h.mgmt.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${h.ns}/configmaps/operated`)).data;

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "cli-operate" });
  await h.commit(
    {
      "app/cm.yaml": configMap("operated", h.ns, { v: "1" }),
      "bad/kustomization.yaml": "resources:\n  - missing-file.yaml\n",
    },
    "v1",
  );
  await h.createKs("app", { path: "./app", targetNamespace: h.ns });
  await h.waitReady("app");
}, 120_000);
afterAll(() => h?.stop());

describe("flotilla reconcile / suspend / resume", () => {
  it("reconcile ks --with-source reconciles the GitRepository, then the Kustomization, printing flux's lines", async () => {
    const r = await cli("reconcile", "ks", "app", "--with-source");
    expect(r.code, r.stderr).toBe(0);
    const revision = await headOf();
    expect(r.stderr).toBe(
      [
        `► annotating GitRepository platform in ${h.ns} namespace`,
        "✔ GitRepository annotated",
        "◎ waiting for GitRepository reconciliation",
        `✔ fetched revision ${revision}`,
        `► annotating Kustomization app in ${h.ns} namespace`,
        "✔ Kustomization annotated",
        "◎ waiting for Kustomization reconciliation",
        `✔ applied revision ${revision}`,
        "",
      ].join("\n"),
    );
  });

  it("suspend holds a new commit back (the source has it, nothing applied); resume applies it and waits for Ready", async () => {
    const s = await cli("suspend", "ks", "app");
    expect([s.code, s.stderr]).toEqual([
      0,
      `► suspending kustomization app in ${h.ns} namespace\n✔ kustomization suspended\n`,
    ]);
    await h.commit({ "app/cm.yaml": configMap("operated", h.ns, { v: "2" }) }, "v2");
    const suspended = await cli("reconcile", "ks", "app");
    expect([suspended.code, suspended.stderr]).toEqual([1, "✗ resource is suspended\n"]);
    // Positive evidence: the GitRepository reconciled to v2 (h.commit waited for it), the Kustomization did not apply it.
    const v2 = await headOf();
    expect((await h.getKs("app")).status?.lastAppliedRevision).not.toBe(v2);
    expect(await dataOf()).toEqual({ v: "1" });

    const r = await cli("resume", "ks", "app");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      [
        `► resuming kustomization app in ${h.ns} namespace`,
        "✔ kustomization resumed",
        "◎ waiting for Kustomization reconciliation",
        "✔ Kustomization app reconciliation completed",
        `✔ applied revision ${v2}`,
        "",
      ].join("\n"),
    );
    expect(await dataOf()).toEqual({ v: "2" });
  });

  it("names what is missing and exits 1", async () => {
    const missing = await cli("suspend", "ks", "nope");
    expect([missing.code, missing.stderr]).toEqual([1, `✗ Kustomization nope not found in ${h.ns} namespace\n`]);
    const noName = await cli("reconcile", "hr");
    expect([noName.code, noName.stderr]).toEqual([1, "✗ HelmRelease name is required\n"]);
  });

  it("reports a failed reconcile with the Ready message, exit 1", async () => {
    await h.createKs("broken", { path: "./bad" });
    const r = await cli("reconcile", "ks", "broken");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/✗ Kustomization reconciliation failed: .*missing-file\.yaml/);
  });

  it("events --for Kustomization/NAME lists its events and its GitRepository's, oldest first, in flux's columns", async () => {
    const r = await cli("events", "--for", "Kustomization/app");
    expect(r.code, r.stderr).toBe(0);

    const [header, ...rows] = r.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^LAST SEEN\s*\tTYPE\s*\tREASON\s*\tOBJECT\s*\tMESSAGE\s*$/);
    // Continuation lines of multi-line messages have a blank OBJECT cell.
    const objects = new Set(rows.map((l) => l.split("\t")[3]!.trim()).filter(Boolean));
    expect(objects).toEqual(new Set(["Kustomization/app", "GitRepository/platform"]));
    expect(rows.some((l) => /\tNormal\s*\tProgressing\s*\tKustomization\/app/.test(l))).toBe(true);
    // The controller records the Warning just after the status the failed reconcile above returned on.
    const warnings = await eventually(
      "the Warning event of Kustomization/broken",
      async () => {
        const w = await cli("events", "--for", "Kustomization/broken", "--types", "Warning");
        return /Warning\s*\t\S+\s*\tKustomization\/broken\s*\t.*missing-file\.yaml/.test(w.stdout) ? w : undefined;
      },
      60_000,
    );
    expect(warnings.stdout).not.toMatch(/\tNormal\s*\t/);
  });

  it("delete asks first: no answer aborts and keeps the object; -s deletes it and the controller prunes what it applied", async () => {
    const kept = await answering("", "delete", "ks", "app");
    expect([kept.code, kept.stderr]).toEqual([
      1,
      "Are you sure you want to delete this kustomization? [y/N] ✗ aborting\n",
    ]);
    expect((await h.getKs("app")).metadata.name).toBe("app");
    const no = await answering("n\n", "delete", "ks", "app");
    expect(no.code).toBe(1);
    const r = await cli("delete", "ks", "app", "-s");
    expect([r.code, r.stderr]).toEqual([
      0,
      `► deleting kustomization app in ${h.ns} namespace\n✔ kustomization deleted\n`,
    ]);
    await eventually(
      "the ConfigMap pruned with the Kustomization",
      async () => {
        try {
          await dataOf();
          return undefined;
        } catch (err) {
          return err instanceof NotFoundError ? true : undefined;
        }
      },
      60_000,
    );
  });
});
