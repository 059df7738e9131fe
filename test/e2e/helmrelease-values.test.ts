// A HelmRelease's values composed from real ConfigMaps and Secrets on the management plane: Flux's
// order (valuesFrom, then spec.values, targetPath entries set with helm's --set), optional references
// skipped, and ValuesError messages naming the object and key — never a Secret's content.
import { beforeAll, describe, expect, it } from "vitest";
import type { HelmRelease, ValuesReference } from "../../src/api/helm/helmrelease.js";
import type { KubeClient } from "../../src/kube/client.js";
import { ReconcileFailure } from "../../src/controllers/kit/failure.js";
import { composeValues, valuesDigest } from "../../src/controllers/helmrelease/values/compose.js";
import { adminClient, testNamespace } from "../support/fleet-context.js";

let client: KubeClient;
let ns: string;

const release = (valuesFrom: ValuesReference[], values?: Record<string, unknown>): HelmRelease =>
  ({
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    kind: "HelmRelease",
    metadata: { name: "web", namespace: ns },
    spec: { interval: "1m", valuesFrom, values },
  }) as HelmRelease;

beforeAll(async () => {
  client = adminClient("management");
  ns = await testNamespace(client, "hr-values");
  await client.create(`/api/v1/namespaces/${ns}/configmaps`, {
    metadata: { name: "web-defaults" },
    data: {
      "values.yaml": "replicaCount: 1\nimage:\n  repository: nginx\n  tag: '1.25'\ningress:\n  enabled: no\n",
      "prod.yaml": "replicaCount: 3\n",
    },
  });
  await client.create(`/api/v1/namespaces/${ns}/secrets`, {
    metadata: { name: "web-secrets" },
    stringData: { "values.yaml": "db:\n  password: hunter2\n", token: "t0k3n", broken: "db: [hunter2\n" },
  });
});

describe("composeValues against the management plane", () => {
  it("merges ConfigMap and Secret values in order, spec.values over them, and targetPath entries", async () => {
    const hr = release(
      [
        { kind: "ConfigMap", name: "web-defaults" },
        { kind: "ConfigMap", name: "web-defaults", valuesKey: "prod.yaml" },
        { kind: "Secret", name: "web-secrets" },
        { kind: "Secret", name: "web-secrets", valuesKey: "token", targetPath: "auth.token" },
        { kind: "ConfigMap", name: "not-there", optional: true },
        { kind: "Secret", name: "web-secrets", valuesKey: "absent", optional: true },
      ],
      { image: { tag: "1.27" } },
    );
    const { values, digest } = await composeValues(client, hr);
    expect(values).toEqual({
      replicaCount: 3,
      image: { repository: "nginx", tag: "1.27" },
      ingress: { enabled: false },
      db: { password: "hunter2" },
      auth: { token: "t0k3n" },
    });
    expect(digest).toBe(valuesDigest(values));
  });

  it("fails with ValuesError naming a ConfigMap that does not exist", async () => {
    const err = await composeValues(client, release([{ kind: "ConfigMap", name: "not-there" }])).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ReconcileFailure);
    expect((err as ReconcileFailure).reason).toBe("ValuesError");
    expect((err as Error).message).toBe(
      `could not resolve ConfigMap chart values reference '${ns}/not-there' with key 'values.yaml': configmaps "not-there" not found`,
    );
  });

  it("fails naming a missing key of a Secret", async () => {
    await expect(
      composeValues(client, release([{ kind: "Secret", name: "web-secrets", valuesKey: "absent" }])),
    ).rejects.toThrow(
      `could not resolve Secret chart values reference '${ns}/web-secrets' with key 'absent': key not found`,
    );
  });

  it("names the Secret and key of values that are not YAML without printing them", async () => {
    const err = (await composeValues(
      client,
      release([{ kind: "Secret", name: "web-secrets", valuesKey: "broken" }]),
    ).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(
      new RegExp(
        `^could not resolve Secret chart values reference '${ns}/web-secrets' with key 'broken': failed to read values data: invalid YAML at line \\d+, column \\d+$`,
      ),
    );
    expect(err.message).not.toContain("hunter2");
  });
});
