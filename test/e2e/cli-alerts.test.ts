// flux's Alert and Provider verbs against the real controller process: `create alert-provider` and
// `create alert` apply and wait until the controller says Ready (flux's lines), `get alert-providers` and
// `get alerts` print flux's columns (a Provider has no SUSPENDED column) with the Ready condition the
// controller keeps — including why an Alert whose Provider is missing is not Ready, where flux's table
// would say "Alert is Ready" whatever happened — and `get all` lists them after the Receivers, as flux does;
// `suspend|resume|delete alert|alert-provider` print flux's lines (flux has no `reconcile alert`, nor have we).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fluxCrds } from "../../src/api/flux-crds.js";
import { runCli } from "../support/cli.js";
import { plane } from "../support/fleet-context.js";
import { type Harness, startHarness } from "../support/harness.js";

let h: Harness<"main">;
let ns: string;
const kubeconfig = () => ["--kubeconfig", plane("management").kubeconfig];
const flotilla = (...args: string[]) => runCli([...args, ...kubeconfig()], { timeoutMs: 180_000 });
/** A table's cells, trimmed (flux's printer pads columns and ends a row with a tab). */
const cells = (out: string) =>
  out
    .split("\n")
    .filter(Boolean)
    .map((l) =>
      l
        .split("\t")
        .map((c) => c.trim())
        .filter((c, i, all) => c || i < all.length - 1),
    );

beforeAll(async () => {
  h = await startHarness({
    namespaces: { main: "cli-alerts" },
    crds: fluxCrds(),
    controller: { storagePrefix: "cli-alerts" },
  });
  ns = h.ns.main;
}, 180_000);

afterAll(() => h?.cleanup(), 120_000);

describe("the Alert and Provider verbs", () => {
  it("create alert-provider and create alert apply and wait until the controller says Ready", async () => {
    const shard = `flotilla.dev/shard=${ns}`;
    const provider = await flotilla(
      "create",
      "alert-provider",
      "hook",
      "--type",
      "generic",
      "--address",
      "http://127.0.0.1:9/hook",
      "--label",
      shard,
      "-n",
      ns,
    );
    expect(provider.code, provider.stderr).toBe(0);
    expect(provider.stderr).toContain("✔ Provider hook is ready");
    const alert = await flotilla(
      "create",
      "alert",
      "errors",
      "--provider-ref",
      "hook",
      "--event-severity",
      "error",
      "--event-source",
      "Kustomization/*",
      "--label",
      shard,
      "-n",
      ns,
    );
    expect(alert.code, alert.stderr).toBe(0);
    expect(alert.stderr).toContain("✔ Alert errors is ready");
  }, 240_000);

  it("get alert-providers and get alerts print flux's columns with the controller's Ready", async () => {
    const providers = await flotilla("get", "alert-providers", "-n", ns);
    expect(providers.code, providers.stderr).toBe(0);
    expect(cells(providers.stdout)).toEqual([
      ["NAME", "READY", "MESSAGE"],
      ["hook", "True", "Provider is Ready"],
    ]);
    const alerts = await flotilla("get", "alerts", "-n", ns);
    expect(cells(alerts.stdout)).toEqual([
      ["NAME", "SUSPENDED", "READY", "MESSAGE"],
      ["errors", "False", "True", "Alert is Ready"],
    ]);
  }, 120_000);

  it("an Alert whose Provider is missing says so in get alerts, and get all lists both kinds after the Receivers", async () => {
    const orphan = await flotilla(
      "create",
      "alert",
      "orphan",
      "--provider-ref",
      "nowhere",
      "--event-source",
      "GitRepository/*",
      "--label",
      `flotilla.dev/shard=${ns}`,
      "-n",
      ns,
      "--timeout",
      "20s",
    );
    expect(orphan.code).not.toBe(0);
    const alerts = await flotilla("get", "alerts", "-n", ns);
    expect(alerts.stdout).toMatch(new RegExp(`orphan\\s+False\\s+False\\s+Provider '${ns}/nowhere' not found`));
    const all = await flotilla("get", "all", "-n", ns);
    const names = all.stdout
      .split("\n")
      .map((l) => l.split("\t")[0]!.trim())
      .filter((n) => n.includes("/"));
    expect(names).toEqual(["provider/hook", "alert/errors", "alert/orphan"]);
  }, 120_000);

  it("suspend, resume and delete alert|alert-provider print flux's lines; reconcile has no such kinds, as in flux", async () => {
    const suspended = await flotilla("suspend", "alert", "errors", "-n", ns);
    expect(suspended.code, suspended.stderr).toBe(0);
    expect(suspended.stderr).toBe(`► suspending alert errors in ${ns} namespace\n✔ alert suspended\n`);
    expect(cells((await flotilla("get", "alerts", "errors", "-n", ns)).stdout)[1]?.slice(0, 2)).toEqual([
      "errors",
      "True",
    ]);
    const resumed = await flotilla("resume", "alert", "errors", "-n", ns);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toBe(
      [
        `► resuming alert errors in ${ns} namespace`,
        "✔ alert resumed",
        "◎ waiting for Alert reconciliation",
        "✔ Alert errors reconciliation completed",
        "✔ Alert reconciliation completed",
        "",
      ].join("\n"),
    );
    const provider = await flotilla("suspend", "alert-provider", "hook", "-n", ns);
    expect(provider.stderr).toBe(`► suspending alert provider hook in ${ns} namespace\n✔ alert provider suspended\n`);
    const back = await flotilla("resume", "alert-provider", "hook", "-n", ns);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain("✔ alert provider resumed\n");
    expect(back.stderr).toContain("✔ Provider reconciliation completed\n");
    const deleted = await flotilla("delete", "alert", "orphan", "--silent", "-n", ns);
    expect(deleted.stderr).toBe(`► deleting alert orphan in ${ns} namespace\n✔ alert deleted\n`);
    const reconcile = await flotilla("reconcile", "alert", "errors", "-n", ns);
    expect(reconcile.code).not.toBe(0);
  }, 180_000);
});
