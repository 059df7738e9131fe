// postBuild variable substitution end to end: values from ConfigMaps and Secrets (an optional one
// missing), inline values on top, bash-style defaults, the per-object opt-out annotation, and Flux's
// StrictPostBuildSubstitutions (on by default, as in Flux 2.9): an unset variable fails the whole
// Kustomization with a message naming the object and the variable, and nothing is applied.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

let h: KustomizeHarness;
const cm = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: h.ns } });

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "postbuild", strictSubstitutions: true });
  const doc = (name: string, data: Record<string, string>, annotations?: Record<string, string>) =>
    JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, ...(annotations ? { annotations } : {}) },
      data,
    });
  await h.mgmt.client.create(`/api/v1/namespaces/${h.ns}/configmaps`, {
    metadata: { name: "cluster-vars" },
    data: { cluster: "staging", region: "eu-1" },
  });
  await h.mgmt.client.create(`/api/v1/namespaces/${h.ns}/secrets`, {
    metadata: { name: "cluster-secrets" },
    stringData: { token: "s3cr3t", region: "from-secret" },
  });
  await h.commit(
    {
      "vars/app.yaml": [
        doc("settings", {
          cluster: "${cluster}",
          region: "${region}",
          token: "${token}",
          inline: "${owner}",
          tier: "${tier:=standard}",
          literal: "$${cluster}",
        }),
        doc("untouched", { raw: "${cluster}" }, { "kustomize.toolkit.fluxcd.io/substitute": "disabled" }),
      ].join("\n---\n"),
      "strict/app.yaml": doc("strict", { value: "${not_set}" }),
    },
    "postBuild cases",
  );
});

afterAll(async () => {
  await h?.stop();
});

describe("postBuild substitution", () => {
  it("substitutes from ConfigMaps and Secrets in order, inline values win, defaults fill gaps, and the opt-out annotation is honoured", async () => {
    await h.createKs("vars", {
      path: "./vars",
      targetNamespace: h.ns,
      postBuild: {
        substitute: { owner: "platform-team" },
        substituteFrom: [
          { kind: "ConfigMap", name: "cluster-vars" },
          { kind: "Secret", name: "cluster-secrets" },
          { kind: "ConfigMap", name: "not-there", optional: true },
        ],
      },
    });
    await h.waitReady("vars");
    expect((await h.mgmt.get(cm("settings")))?.data).toEqual({
      cluster: "staging",
      region: "from-secret",
      token: "s3cr3t",
      inline: "platform-team",
      tier: "standard",
      literal: "${cluster}",
    });
    expect((await h.mgmt.get(cm("untouched")))?.data).toEqual({ raw: "${cluster}" });
  });

  it("under StrictPostBuildSubstitutions an unset variable fails the Kustomization, naming object and variable, applying nothing", async () => {
    await h.createKs("strict", { path: "./strict", targetNamespace: h.ns, postBuild: { substitute: { x: "1" } } });
    const failed = await h.waitNotReady("strict", "BuildFailed");
    expect(failed.message).toBe(
      `postBuild substitution in ConfigMap/${h.ns}/strict: variable not set (strict mode): "not_set"`,
    );
    expect(await h.mgmt.get(cm("strict"))).toBeUndefined();
  });

  it("a required substituteFrom source that does not exist fails with its name", async () => {
    await h.createKs("missing-source", {
      path: "./vars",
      targetNamespace: h.ns,
      postBuild: { substituteFrom: [{ kind: "ConfigMap", name: "nowhere" }] },
    });
    const failed = await h.waitNotReady("missing-source", "BuildFailed");
    expect(failed.message).toContain("substitute from 'ConfigMap/nowhere' failed");
  });
});
