import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { DEFAULT_DISTRIBUTION, DEFAULT_INSTANCE_COMPONENTS } from "../install/flux-instance.js";
import { addFluxInstanceFlags, fluxInstanceOf, type InstanceFlags } from "./flux-instance-flags.js";

/** `flotilla install <args>` as far as the FluxInstance flags go. */
function parse(args: string[]) {
  const cmd = addFluxInstanceFlags(new Command("install").exitOverride());
  cmd.parse(args, { from: "user" });
  return fluxInstanceOf(cmd.opts<InstanceFlags>(), cmd, "flux-system");
}
const specOf = (args: string[]) => parse(args)!.instance.spec as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const dir = mkdtempSync(join(tmpdir(), "flotilla-instance-flags-"));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe("flotilla install's --instance-* flags (flux-operator install's)", () => {
  it("writes no FluxInstance when no instance flag is given (the defaults alone ask for nothing)", () => {
    expect(parse([])).toBeUndefined();
  });

  it("writes the operator CLI's defaults with --flux-instance", () => {
    const r = parse(["--flux-instance"])!;
    expect(r.instance.metadata).toMatchObject({ name: "flux", namespace: "flux-system" });
    expect(r.secret).toBeUndefined();
    expect(r.instance.spec).toEqual({
      distribution: DEFAULT_DISTRIBUTION,
      components: DEFAULT_INSTANCE_COMPONENTS,
      cluster: { type: "kubernetes", size: "medium", domain: "cluster.local", multitenant: false, networkPolicy: true },
    });
  });

  it("maps each --instance-* flag to its FluxInstance field", () => {
    const spec = specOf([
      "--instance-distribution-version=2.6.x",
      "--instance-distribution-registry=registry.example/flux",
      "--instance-distribution-artifact=oci://registry.example/manifests",
      "--instance-components=source-controller,kustomize-controller",
      "--instance-components-extra=source-watcher",
      "--instance-cluster-type=openshift",
      "--instance-cluster-size=large",
      "--instance-cluster-domain=example.internal",
      "--instance-cluster-multitenant",
      "--instance-cluster-network-policy=false",
      "--instance-sync-url=https://git.example/fleet.git",
      "--instance-sync-ref=refs/heads/main",
      "--instance-sync-path=./clusters/prod",
    ]);
    expect(spec).toEqual({
      distribution: {
        version: "2.6.x",
        registry: "registry.example/flux",
        artifact: "oci://registry.example/manifests",
      },
      components: ["source-controller", "kustomize-controller", "source-watcher"],
      cluster: {
        type: "openshift",
        size: "large",
        domain: "example.internal",
        multitenant: true,
        networkPolicy: false,
      },
      sync: {
        kind: "GitRepository",
        url: "https://git.example/fleet.git",
        ref: "refs/heads/main",
        path: "./clusters/prod",
      },
    });
  });

  it("makes the sync credentials a Secret named after the namespace: basic auth for Git, a docker config for OCI", () => {
    const git = parse([
      "--instance-sync-url=https://git.example/a.git",
      "--instance-sync-ref=main",
      "--instance-sync-creds=bot:tok:en",
    ])!;
    expect((git.instance.spec as { sync: { pullSecret: string } }).sync.pullSecret).toBe("flux-system");
    expect(git.secret).toMatchObject({
      metadata: { name: "flux-system" },
      stringData: { username: "bot", password: "tok:en" },
    });
    const oci = parse([
      "--instance-sync-url=oci://ghcr.io/org/fleet",
      "--instance-sync-ref=latest",
      "--instance-sync-creds=bot:tok",
    ])!;
    expect((oci.instance.spec as { sync: { kind: string } }).sync.kind).toBe("OCIRepository");
    expect(oci.secret).toMatchObject({ type: "kubernetes.io/dockerconfigjson" });
    expect(
      JSON.parse((oci.secret as unknown as { stringData: Record<string, string> }).stringData[".dockerconfigjson"]!),
    ).toEqual({
      auths: { "ghcr.io": { username: "bot", password: "tok", auth: Buffer.from("bot:tok").toString("base64") } },
    });
  });

  it("reads -f/--instance-file, placing the instance in the controller's namespace", () => {
    const path = file(
      "fi.yaml",
      "apiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata:\n  name: flux\n  namespace: elsewhere\nspec:\n  distribution:\n    version: 2.x\n",
    );
    const r = parse(["-f", path])!;
    expect(r.instance.metadata.namespace).toBe("flux-system");
    expect(r.instance.spec).toEqual({ distribution: { version: "2.x" } });
  });

  it("refuses, by flag name, what it cannot write", () => {
    expect(() => parse(["--instance-sync-url=https://git.example/a.git"])).toThrow(
      /^--instance-sync-ref is required with --instance-sync-url/,
    );
    expect(() => parse(["--instance-sync-creds=bot:tok"])).toThrow(/^--instance-sync-creds needs a sync/);
    expect(() =>
      parse([
        "--instance-sync-url=https://git.example/a.git",
        "--instance-sync-ref=main",
        "--instance-sync-creds=nocolon",
      ]),
    ).toThrow("--instance-sync-creds: invalid format, expected username:token");
    expect(() => parse(["-f", "https://example.com/fi.yaml"])).toThrow(
      /^--instance-file https:\/\/example.com\/fi.yaml: flotilla reads a local file only/,
    );
    expect(() => parse(["-f", join(dir, "missing.yaml")])).toThrow(/^--instance-file .*missing.yaml: ENOENT/);
    const named = file(
      "named.yaml",
      "apiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata:\n  name: other\n",
    );
    expect(() => parse(["-f", named])).toThrow("the only accepted name for a FluxInstance is 'flux' (found 'other')");
    const two = file("two.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
    expect(() => parse(["-f", two])).toThrow(/expected one FluxInstance \(apiVersion fluxcd.controlplane.io\/v1\)/);
  });
});
