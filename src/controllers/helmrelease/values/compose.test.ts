// Flux's merge rules (fluxcd/pkg chartutil.ChartValuesFromReferences) on objects held in memory; reading
// them from a real apiserver is test/e2e/helmrelease-values.test.ts. Expected results where Go's own
// behaviour is subtle (targetPath vs spec.values) were checked by running Flux's MergeMaps and strvals.
import { describe, expect, it } from "vitest";
import type { HelmRelease, ValuesReference } from "../../../api/helm/helmrelease.js";
import { ReconcileFailure } from "../../kit/failure.js";
import { composeValuesFrom, type ValuesSource } from "./compose.js";

function release(valuesFrom: ValuesReference[], values?: Record<string, unknown>): HelmRelease {
  return {
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    kind: "HelmRelease",
    metadata: { name: "web", namespace: "apps" },
    spec: { interval: "1m", valuesFrom, values },
  } as HelmRelease;
}

function objects(all: Record<string, Record<string, string>>) {
  const reads: string[] = [];
  const read = (ref: ValuesReference): Promise<ValuesSource> => {
    reads.push(`${ref.kind}/${ref.name}`);
    const data = all[`${ref.kind}/${ref.name}`];
    return Promise.resolve(data ? { data } : null);
  };
  return { read, reads };
}

describe("composeValues merge order", () => {
  it("merges valuesFrom in order, deep, then spec.values over them", async () => {
    const { read } = objects({
      "ConfigMap/base": { "values.yaml": "image:\n  repository: nginx\n  tag: '1.0'\nreplicas: 1\nlist: [a, b]\n" },
      "Secret/over": { "values.yaml": "image:\n  tag: '2.0'\nlist: [c]\n" },
    });
    const hr = release(
      [
        { kind: "ConfigMap", name: "base" },
        { kind: "Secret", name: "over" },
      ],
      { replicas: 3 },
    );
    const { values, digest } = await composeValuesFrom(hr, read);
    expect(values).toEqual({ image: { repository: "nginx", tag: "2.0" }, replicas: 3, list: ["c"] });
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("sets a targetPath entry with helm's --set typing, over spec.values for a nested path", async () => {
    const { read } = objects({ "Secret/creds": { port: "8080", on: "true" } });
    const hr = release(
      [
        { kind: "Secret", name: "creds", valuesKey: "port", targetPath: "db.port" },
        { kind: "Secret", name: "creds", valuesKey: "on", targetPath: "flags[1]" },
      ],
      { db: { port: 5432 } },
    );
    expect((await composeValuesFrom(hr, read)).values).toEqual({ db: { port: 8080 }, flags: [null, true] });
    // spec.values itself is left as it was
    expect(hr.spec.values).toEqual({ db: { port: 5432 } });
  });

  it("keeps Flux's map sharing exactly: a later targetPath into a map spec.values also sets loses to it", async () => {
    // Go (MergeMaps + strvals) gives db.port 5432 here: the first entry's merge shares spec.values' db map,
    // the second's merge copies it, so only the first write reaches spec.values.
    const { read } = objects({ "Secret/creds": { password: "s3cret", port: "8080" } });
    const hr = release(
      [
        { kind: "Secret", name: "creds", valuesKey: "password", targetPath: "db.auth.password" },
        { kind: "Secret", name: "creds", valuesKey: "port", targetPath: "db.port" },
      ],
      { db: { port: 5432, auth: { user: "app" } } },
    );
    expect((await composeValuesFrom(hr, read)).values).toEqual({
      db: { port: 5432, auth: { user: "app", password: "s3cret" } },
    });
  });

  it("lets spec.values win over a top-level targetPath, as Flux does", async () => {
    const { read } = objects({ "ConfigMap/c": { v: "1" } });
    const hr = release([{ kind: "ConfigMap", name: "c", valuesKey: "v", targetPath: "x" }], { x: 5 });
    expect((await composeValuesFrom(hr, read)).values).toEqual({ x: 5 });
  });

  it("keeps a literal targetPath value verbatim, commas and braces included", async () => {
    const { read } = objects({ "ConfigMap/c": { cfg: "a=1,b={2}", n: "42" } });
    const hr = release([
      { kind: "ConfigMap", name: "c", valuesKey: "cfg", targetPath: "app.config", literal: true },
      { kind: "ConfigMap", name: "c", valuesKey: "n", targetPath: "app.count", literal: true },
    ]);
    expect((await composeValuesFrom(hr, read)).values).toEqual({ app: { config: "a=1,b={2}", count: "42" } });
  });

  it("reads each object once, however many entries name it", async () => {
    const { read, reads } = objects({ "ConfigMap/c": { a: "x: 1\n", b: "y: 2\n" } });
    const hr = release([
      { kind: "ConfigMap", name: "c", valuesKey: "a" },
      { kind: "ConfigMap", name: "c", valuesKey: "b" },
    ]);
    expect((await composeValuesFrom(hr, read)).values).toEqual({ x: 1, y: 2 });
    expect(reads).toEqual(["ConfigMap/c"]);
  });

  it("skips optional references whose object or key is missing", async () => {
    const { read } = objects({ "ConfigMap/c": { "values.yaml": "a: 1\n" } });
    const hr = release([
      { kind: "ConfigMap", name: "gone", optional: true },
      { kind: "ConfigMap", name: "c", valuesKey: "nope", optional: true },
      { kind: "ConfigMap", name: "c" },
    ]);
    expect((await composeValuesFrom(hr, read)).values).toEqual({ a: 1 });
  });

  it("fails with ValuesError in Flux's words for a missing object or key", async () => {
    const { read } = objects({ "Secret/s": { other: "x" } });
    const missing = composeValuesFrom(release([{ kind: "ConfigMap", name: "gone" }]), read);
    await expect(missing).rejects.toThrow(
      "could not resolve ConfigMap chart values reference 'apps/gone' with key 'values.yaml': configmaps \"gone\" not found",
    );
    await expect(missing).rejects.toBeInstanceOf(ReconcileFailure);
    await expect(composeValuesFrom(release([{ kind: "Secret", name: "s", valuesKey: "k" }]), read)).rejects.toThrow(
      "could not resolve Secret chart values reference 'apps/s' with key 'k': key not found",
    );
  });

  it("names the object and key of values that are not YAML, never quoting a Secret", async () => {
    const { read } = objects({ "Secret/s": { "values.yaml": "password: [hunter2\n" } });
    const err = await composeValuesFrom(release([{ kind: "Secret", name: "s" }]), read).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReconcileFailure);
    expect((err as ReconcileFailure).reason).toBe("ValuesError");
    expect((err as Error).message).toMatch(
      /^could not resolve Secret chart values reference 'apps\/s' with key 'values.yaml': failed to read values data: invalid YAML at line \d+, column \d+$/,
    );
    expect((err as Error).message).not.toContain("hunter2");
    const { read: read2 } = objects({ "Secret/s": { k: "a,hunter2" } });
    const bad = composeValuesFrom(release([{ kind: "Secret", name: "s", valuesKey: "k", targetPath: "x" }]), read2);
    await expect(bad).rejects.toThrow("with key 'k': failed to merge value");
    await expect(bad).rejects.not.toThrow("hunter2");
  });
});
