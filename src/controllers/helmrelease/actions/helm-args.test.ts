import { describe, expect, it } from "vitest";
import type { HelmRelease, HelmReleaseSpec } from "../../../api/helm/helmrelease.js";
import { useHelmEngine } from "./helm-engine-switch.js";
import { installArgs } from "./install.js";
import { rollbackArgs } from "./rollback.js";
import { testArgs } from "./test.js";
import { uninstallArgs } from "./uninstall.js";
import { upgradeArgs } from "./upgrade.js";

const hr = (spec: Partial<HelmReleaseSpec> = {}): HelmRelease => ({
  apiVersion: "helm.toolkit.fluxcd.io/v2",
  kind: "HelmRelease",
  metadata: { name: "cm", namespace: "tenants" },
  spec: { interval: "1m", ...spec },
});
const t = { release: "default-cm", namespace: "default" };

describe("helm arguments (helm-controller's options on the helm v4 CLI)", () => {
  it("installs server-side, taking ownership, waiting with kstatus and for jobs, CRDs left to the controller, devel charts", () => {
    expect(installArgs(hr(), t, "c.tgz")).toEqual([
      "install",
      "-n",
      "default",
      "--server-side=true",
      "--force-conflicts",
      "--take-ownership",
      "--wait=flotilla",
      "--wait-for-jobs",
      "--skip-crds",
      "--devel",
      "--timeout",
      "5m0s",
      "--",
      "default-cm",
      "c.tgz",
    ]);
  });

  it("waits by spec.waitStrategy: poller is flotilla's poller in the engine (helm's kstatus watcher in a helm process), legacy is helm v3's wait (helm v4's --wait=legacy)", () => {
    const legacy = hr({ waitStrategy: { name: "legacy" } });
    expect(installArgs(legacy, t, "c.tgz")).toContain("--wait=legacy");
    expect(upgradeArgs(legacy, t, "c.tgz")).toContain("--wait=legacy");
    expect(rollbackArgs(legacy, t, 1)).toContain("--wait=legacy");
    expect(uninstallArgs(legacy, t)).toContain("--wait=legacy");
    expect(upgradeArgs(hr({ waitStrategy: { name: "poller" } }), t, "c.tgz")).toContain("--wait=flotilla");
    expect(installArgs(hr(), t, "c.tgz")).toContain("--wait=flotilla");
    // A helm process per action (--helm-engine=false) has no callback: helm's own kstatus watcher.
    useHelmEngine(false);
    try {
      expect(upgradeArgs(hr({ waitStrategy: { name: "poller" } }), t, "c.tgz")).toContain("--wait=watcher");
      expect(installArgs(hr(), t, "c.tgz")).toContain("--wait=watcher");
    } finally {
      useHelmEngine(true);
    }
    // A poller with healthCheckExprs judges them in that wait (the engine's --wait=flotilla callback);
    // deletion stays helm's watcher, and under legacy the expressions are not read (helm-controller).
    const exprs = { healthCheckExprs: [{ apiVersion: "example.com/v1", kind: "Widget", current: "status.ready" }] };
    const judged = hr({ waitStrategy: { name: "poller" }, ...exprs });
    expect(installArgs(judged, t, "c.tgz")).toContain("--wait=flotilla");
    expect(upgradeArgs(hr(exprs), t, "c.tgz")).toContain("--wait=flotilla");
    expect(rollbackArgs(judged, t, 1)).toContain("--wait=flotilla");
    expect(uninstallArgs(judged, t)).toContain("--wait=watcher");
    expect(installArgs(hr({ waitStrategy: { name: "legacy" }, ...exprs }), t, "c.tgz")).toContain("--wait=legacy");
    // No wait at all when the action disables it, whatever the strategy.
    const off = hr({ waitStrategy: { name: "legacy" }, install: { disableWait: true } });
    expect(installArgs(off, t, "c.tgz").some((a) => a.startsWith("--wait"))).toBe(false);
  });

  it("puts the release name, chart and revision after '--', extra flags before it: a name is never read as a flag", () => {
    const odd = { ...t, release: "--generate-name" };
    const positionals = (args: string[]) => args.slice(args.indexOf("--") + 1);
    expect(positionals(installArgs(hr(), odd, "c.tgz", ["-f", "v.yaml"]))).toEqual(["--generate-name", "c.tgz"]);
    expect(positionals(upgradeArgs(hr(), odd, "c.tgz", ["-f", "v.yaml"]))).toEqual(["--generate-name", "c.tgz"]);
    expect(positionals(rollbackArgs(hr(), odd, 2))).toEqual(["--generate-name", "2"]);
    expect(positionals(uninstallArgs(hr(), odd))).toEqual(["--generate-name"]);
    expect(positionals(testArgs(hr(), odd))).toEqual(["--generate-name"]);
    const install = installArgs(hr(), odd, "c.tgz", ["-f", "v.yaml"]);
    expect(install.indexOf("-f")).toBeLessThan(install.indexOf("--"));
    // Only the positionals follow it: one "--", three from the end.
    expect(install.filter((a) => a === "--")).toHaveLength(1);
  });

  it("never passes --atomic or --rollback-on-failure: remediation is the controller's", () => {
    const all = [installArgs(hr(), t, "c"), upgradeArgs(hr(), t, "c"), rollbackArgs(hr(), t, 1)].flat();
    expect(all.filter((a) => /atomic|rollback-on-failure/.test(a))).toEqual([]);
  });

  it("maps the install options that turn things off, and creates the namespace only with a targetNamespace", () => {
    const spec = {
      install: {
        disableWait: true,
        disableTakeOwnership: true,
        crds: "Skip" as const,
        createNamespace: true,
        disableHooks: true,
      },
    };
    const args = installArgs(hr(spec), { ...t, asUser: "system:serviceaccount:tenants:sa" }, "c");
    expect(args).toContain("--skip-crds");
    expect(args).toContain("--no-hooks");
    expect(args).not.toContain("--take-ownership");
    expect(args).not.toContain("--wait=flotilla");
    expect(args).not.toContain("--create-namespace");
    expect(args.join(" ")).toContain("--kube-as-user system:serviceaccount:tenants:sa");
    expect(installArgs(hr({ ...spec, targetNamespace: "default" }), t, "c")).toContain("--create-namespace");
  });

  it("upgrades resetting values (or reusing them with preserveValues), with maxHistory and the server-side method of the last release", () => {
    const args = upgradeArgs(hr({ maxHistory: 3 }), t, "c");
    expect(args).toContain("--reset-values");
    expect(args).toContain("--server-side=auto");
    expect(args.join(" ")).toContain("--history-max 3");
    expect(upgradeArgs(hr({ upgrade: { preserveValues: true, cleanupOnFail: true } }), t, "c")).toEqual(
      expect.arrayContaining(["--reuse-values", "--cleanup-on-fail"]),
    );
  });

  it("rolls back to an explicit revision, uninstalls with the deletion propagation, tests with filters", () => {
    const rollback = rollbackArgs(hr(), t, 2);
    expect([rollback[0], ...rollback.slice(-3)]).toEqual(["rollback", "--", "default-cm", "2"]);
    expect(uninstallArgs(hr({ uninstall: { deletionPropagation: "foreground" } }), t).join(" ")).toContain(
      "--cascade foreground",
    );
    const filters = [{ name: "a" }, { name: "b", exclude: true }];
    expect(testArgs(hr({ test: { enable: true, filters } }), t).join(" ")).toContain(
      "--filter name=a --filter !name=b",
    );
  });
});
