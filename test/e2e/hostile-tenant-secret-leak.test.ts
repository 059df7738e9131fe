// A tenant trying to make a Secret value show where more people look than at Secrets: Kustomizations
// whose manifests carry a Secret with a distinctive value and which fail in every way we could think
// of — an invalid object beside it, the Secret aimed at a namespace it may not write, a value
// substituted from a Secret into a field the API rejects and echoes, a value that breaks the YAML
// after substitution, a failing health check, a secretGenerator literal with a typo — then a scan of
// everything a user or operator reads: every Kustomization (status included), every Event in both
// tenants' namespaces, the controller's full log at debug level, and `flotilla kustomize build`'s
// error output. No value may appear, plain or base64.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { type HostileFleet, logText, mgmt, startHostileFleet } from "../support/hostile-tenants.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

let f: HostileFleet;
let ns: string;
const hex = () => randomBytes(6).toString("hex");
/** The distinctive values; each holds its own random part, so a leak of any part of it is caught. */
const secret = {
  inManifest: `leak-manifest-${hex()}`,
  // Not a valid label value (spaces): the API's Invalid message quotes it.
  label: `leak label ${hex()}`,
  // After substitution `x: *leak...` reads as a YAML alias, and the parse error names the alias.
  alias: `*leakalias${hex()}`,
  literal: `leak-literal-${hex()}`,
};
const yaml = (lines: string[]) => `${lines.join("\n")}\n`;
const secretManifest = (namespace?: string) =>
  yaml([
    "apiVersion: v1",
    "kind: Secret",
    "metadata:",
    "  name: leaky",
    ...(namespace ? [`  namespace: ${namespace}`] : []),
    "stringData:",
    `  token: ${secret.inManifest}`,
  ]);
const configMap = (name: string, extra: string[]) =>
  yaml(["apiVersion: v1", "kind: ConfigMap", "metadata:", `  name: ${name}`, ...extra]);

/** Each failure: its directory, the Kustomization's extra spec, and the reason Flux gives it. */
const failures = () =>
  ({
    "invalid-beside": {
      files: { "secret.yaml": secretManifest(), "cm.yaml": configMap("Bad_Name", []) },
      spec: {},
      reason: "ReconciliationFailed",
    },
    // No targetNamespace here: it would move the Secret into the tenant's own namespace.
    "forbidden-secret": {
      files: { "secret.yaml": secretManifest("kube-system") },
      spec: { targetNamespace: undefined },
      reason: "ReconciliationFailed",
    },
    "substituted-invalid-label": {
      files: {
        "secret.yaml": secretManifest(),
        "cm.yaml": configMap("labelled", ["  labels:", '    leak: "${LEAK_LABEL}"']),
      },
      spec: { postBuild: { substituteFrom: [{ kind: "Secret", name: "attacker-vars" }] } },
      reason: "ReconciliationFailed",
    },
    "substituted-broken-yaml": {
      files: { "secret.yaml": secretManifest(), "cm.yaml": configMap("aliased", ["data:", "  x: ${LEAK_ALIAS}"]) },
      spec: { postBuild: { substituteFrom: [{ kind: "Secret", name: "attacker-vars" }] } },
      reason: "BuildFailed",
    },
    "health-check": {
      files: { "secret.yaml": secretManifest() },
      spec: {
        timeout: "10s",
        healthChecks: [
          { apiVersion: "v1", kind: "Secret", name: "leaky" },
          { apiVersion: "v1", kind: "ConfigMap", name: "never-there" },
        ],
      },
      reason: "HealthCheckFailed",
    },
    "generator-typo": {
      files: {
        "kustomization.yaml": yaml([
          "secretGenerator:",
          "- name: generated",
          "  literals:",
          `  - token:${secret.literal}`,
        ]),
      },
      spec: {},
      reason: "BuildFailed",
    },
  }) as const;

beforeAll(async () => {
  f = await startHostileFleet("leak");
  ns = f.attacker.ns;
  await mgmt.client.create(`/api/v1/namespaces/${ns}/secrets`, {
    metadata: { name: "attacker-vars" },
    stringData: { LEAK_LABEL: secret.label, LEAK_ALIAS: secret.alias },
  });
  const files: Record<string, string> = {};
  for (const [dir, failure] of Object.entries(failures()))
    for (const [file, text] of Object.entries(failure.files)) files[`${dir}/${file}`] = text;
  await f.attacker.commit(files);
}, 240_000);

afterAll(async () => {
  await f?.stop();
});

/** Every form a value could leak in: as is, base64, and its random part alone. */
const forms = (value: string) => [
  value,
  Buffer.from(value).toString("base64"),
  value.replace(/^.*?([0-9a-f]{12})$/, "$1"),
];
const leaksIn = (text: string) =>
  Object.values(secret)
    .flatMap(forms)
    .filter((v) => text.includes(v));

describe("a tenant making a Secret value appear outside a Secret", () => {
  it.each(Object.keys(failures()))("%s: fails, naming what failed, without the value", async (name) => {
    const failure = failures()[name as keyof ReturnType<typeof failures>];
    await f.attacker.createKs(name, { path: `./${name}`, targetNamespace: ns, ...failure.spec });
    const failed = await f.attacker.waitNotReady(name, failure.reason);
    expect(failed.message.length).toBeGreaterThan(0);
    expect(leaksIn(failed.message)).toEqual([]);
  });

  it("the failures say what failed, the values masked where the API or the parser quoted them", async () => {
    const message = async (name: string) =>
      (await f.attacker.getKs(name)).status!.conditions!.find((c) => c.type === "Ready")!.message;
    expect(await message("invalid-beside")).toContain(`ConfigMap/${ns}/Bad_Name dry-run failed`);
    expect(await message("forbidden-secret")).toContain('secrets "leaky" is forbidden');
    expect(await message("substituted-invalid-label")).toContain('metadata.labels: Invalid value: "***"');
    expect(await message("substituted-broken-yaml")).toContain("unknown alias ***");
    expect(await message("health-check")).toContain("never-there");
    expect(await message("generator-typo")).toContain("invalid literal source (not shown: a secretGenerator literal)");
    // Nothing of a failed set was applied: no ConfigMap from the substituted sets, no Secret in kube-system.
    for (const path of [
      `/api/v1/namespaces/${ns}/configmaps/labelled`,
      `/api/v1/namespaces/${ns}/configmaps/aliased`,
      "/api/v1/namespaces/kube-system/secrets/leaky",
    ])
      expect(await mgmt.client.get(path).catch(() => undefined)).toBeUndefined();
    await f.bystanderKeepsReconciling();
  });

  it("no value in any Kustomization, any Event of either namespace, or the controller's log", async () => {
    const list = async (path: string) => (await mgmt.client.get<{ items: unknown[] }>(path)).items;
    const everything = JSON.stringify({
      kustomizations: await list(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations`),
      events: [...(await f.attacker.events()), ...(await f.bystander.events())],
    });
    // The scan sees the failures it is meant to scan: a Warning event for each one.
    const warned = new Set((await f.attacker.events()).map((e) => e.involvedObject?.name));
    for (const name of Object.keys(failures())) expect(warned).toContain(name);
    expect(leaksIn(everything)).toEqual([]);
    const log = logText(f.controller);
    expect(log).toContain("dry-run failed");
    expect(leaksIn(log)).toEqual([]);
  });

  it("no value in `flotilla kustomize build`'s error output for the same directories", async () => {
    for (const [name, failure] of Object.entries(failures())) {
      const dir = makeWorkDir(`hostile-${name}-`);
      for (const [file, text] of Object.entries(failure.files)) writeFileSync(join(dir, file), text);
      // A broken file beside the Secret, so the build fails for every directory.
      writeFileSync(join(dir, "broken.yaml"), "a: [\n");
      if (!("kustomization.yaml" in failure.files))
        writeFileSync(
          join(dir, "kustomization.yaml"),
          yaml(["resources:", ...Object.keys(failure.files).map((x) => `- ${x}`), "- broken.yaml"]),
        );
      const out = await runCli(["kustomize", "build", dir]);
      expect(out.code).toBe(1);
      expect(out.stderr).toMatch(/✗ /);
      expect(leaksIn(out.stdout + out.stderr)).toEqual([]);
    }
  });
});
