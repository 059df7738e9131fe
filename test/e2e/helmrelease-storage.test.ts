// Helm's own storage read and written by flotilla, and drift of a release's objects, against releases
// made by the REAL helm CLI on a tenant plane: what flotilla reads is what `helm history` shows, an
// unlocked release lets `helm upgrade` proceed, and drift is found and put back as helm's field manager.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { correctDrift, detectDrift } from "../../src/controllers/helmrelease/drift/drift.js";
import {
  manifestObjects,
  observationDigest,
  ReleaseStorage,
} from "../../src/controllers/helmrelease/storage/release.js";
import { decodeRelease, encodeRelease } from "../../src/controllers/helmrelease/storage/codec.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ChartRepo, helmEnv, runHelm, startChartRepo } from "../support/chart-repo.js";
import { adminClient, plane, testNamespace } from "../support/fleet-context.js";

const tenant = adminClient("tenant1");
const kubeconfig = plane("tenant1").kubeconfig;
let repo: ChartRepo;
let ns: string;
let env: NodeJS.ProcessEnv;

const deployment = [
  "apiVersion: apps/v1",
  "kind: Deployment",
  "metadata:",
  "  name: {{ .Release.Name }}-web",
  "spec:",
  "  replicas: {{ .Values.replicas }}",
  "  selector: {matchLabels: {app: web}}",
  "  template:",
  "    metadata: {labels: {app: web}}",
  "    spec: {containers: [{name: web, image: nginx:1.27}]}",
  "",
].join("\n");

const helm = (...args: string[]) => runHelm([...args, "--kubeconfig", kubeconfig, "-n", ns], env);

beforeAll(async () => {
  ns = await testNamespace(tenant, "hrstore");
  env = helmEnv(makeWorkDir("flotilla-hrstore-"));
  repo = await startChartRepo();
  const files = { "values.yaml": "message: hello\nreplicas: 1\n", "templates/web.yaml": deployment };
  await repo.addChart("web", "1.0.0", { appVersion: "1.0", files });
  await repo.addChart("web", "1.1.0", { appVersion: "1.1", files });
  await helm("install", "web", "web", "--repo", repo.url, "--version", "1.0.0", "--set", "message=first");
}, 120_000);
afterAll(async () => {
  await repo?.close();
});

describe("Helm's release storage, read by flotilla", () => {
  it("reads every revision helm wrote, with status, chart, values and manifest", async () => {
    await helm("upgrade", "web", "web", "--repo", repo.url, "--version", "1.1.0", "--set", "message=second");
    const history = await new ReleaseStorage(tenant, ns).history("web");
    expect(history.map((r) => [r.version, r.info.status, r.chart.metadata.version])).toEqual([
      [1, "superseded", "1.0.0"],
      [2, "deployed", "1.1.0"],
    ]);
    expect(history[1]!.config).toEqual({ message: "second" });
    expect(manifestObjects(history[1]!).map((o) => o.kind)).toEqual(["ConfigMap", "Deployment"]);
    // The digest is stable and distinguishes revisions.
    expect(observationDigest(history[1]!)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(observationDigest(history[1]!)).toBe(observationDigest((await new ReleaseStorage(tenant, ns).last("web"))!));
    expect(observationDigest(history[0]!)).not.toBe(observationDigest(history[1]!));
    expect(await new ReleaseStorage(tenant, ns).history("absent")).toEqual([]);
  }, 120_000);

  it("unlocks a release left pending-upgrade as a killed helm leaves it, so the next helm upgrade proceeds", async () => {
    // A helm killed mid-upgrade leaves its newest record pending-upgrade: made here by rewriting the
    // stored record exactly as helm would have left it.
    const storage = new ReleaseStorage(tenant, ns);
    const last = (await storage.last("web"))!;
    const path = `/api/v1/namespaces/${ns}/secrets/sh.helm.release.v1.web.v${last.version}`;
    const secret = await tenant.get<{ data: { release: string }; metadata: { labels: Record<string, string> } }>(path);
    const record = decodeRelease(secret.data.release) as { info: { status: string } };
    record.info.status = "pending-upgrade";
    secret.data.release = encodeRelease(record);
    secret.metadata.labels.status = "pending-upgrade";
    await tenant.update(path, secret);
    await expect(helm("upgrade", "web", "web", "--repo", repo.url, "--version", "1.1.0")).rejects.toThrow(
      /another operation \(install\/upgrade\/rollback\) is in progress/,
    );

    const pending = (await storage.last("web"))!;
    expect(pending.info.status).toBe("pending-upgrade");
    await storage.unlock(pending);
    const unlocked = (await storage.last("web"))!;
    expect(unlocked.info.status).toBe("failed");
    expect(unlocked.info.description).toBe("Release unlocked from stale 'pending-upgrade' state");
    expect((await tenant.get<typeof secret>(path)).metadata.labels.status).toBe("failed");
    await helm("upgrade", "web", "web", "--repo", repo.url, "--version", "1.1.0", "--set", "message=third");
    expect((await storage.last("web"))!.info.status).toBe("deployed");
  }, 120_000);
});

describe("drift of a release's objects", () => {
  it("finds an object deleted and one changed by hand, puts both back as helm, and leaves ignored paths alone", async () => {
    const release = (await new ReleaseStorage(tenant, ns).last("web"))!;
    const options = { defaultNamespace: ns };
    expect((await detectDrift(tenant, release, options)).entries).toEqual([]);

    await tenant.delete(`/api/v1/namespaces/${ns}/configmaps/web-web`);
    await tenant.patch(
      `/apis/apps/v1/namespaces/${ns}/deployments/web-web`,
      "merge",
      { spec: { replicas: 3 } },
      { fieldManager: "kubectl-edit" },
    );
    const report = await detectDrift(tenant, release, options);
    expect(report.entries).toEqual([
      { subject: `ConfigMap/${ns}/web-web`, action: "create", paths: [] },
      { subject: `Deployment/${ns}/web-web`, action: "update", paths: ["spec.replicas"] },
    ]);

    // An ignore rule on /spec/replicas of Deployments: that change is no drift.
    const ignoring = { ...options, ignore: [{ paths: ["/spec/replicas"], target: { kind: "Deployment" } }] };
    expect((await detectDrift(tenant, release, ignoring)).entries.map((e) => e.subject)).toEqual([
      `ConfigMap/${ns}/web-web`,
    ]);

    await correctDrift(tenant, report);
    expect((await detectDrift(tenant, release, options)).entries).toEqual([]);
    const web = await tenant.get<{ spec: { replicas: number } }>(`/apis/apps/v1/namespaces/${ns}/deployments/web-web`);
    expect(web.spec.replicas).toBe(1);
  }, 120_000);

  it("leaves objects that opt out with helm.toolkit.fluxcd.io/driftDetection: disabled", async () => {
    const release = (await new ReleaseStorage(tenant, ns).last("web"))!;
    await tenant.patch(`/api/v1/namespaces/${ns}/configmaps/web-web`, "merge", { data: { message: "by hand" } });
    const optedOut = {
      ...release,
      manifest: release.manifest!.replace(
        "kind: ConfigMap\nmetadata:\n",
        "kind: ConfigMap\nmetadata:\n  annotations:\n    helm.toolkit.fluxcd.io/driftDetection: disabled\n",
      ),
    };
    expect(optedOut.manifest).not.toBe(release.manifest);
    expect((await detectDrift(tenant, optedOut, { defaultNamespace: ns })).entries).toEqual([]);
    expect((await detectDrift(tenant, release, { defaultNamespace: ns })).entries.map((e) => e.subject)).toEqual([
      `ConfigMap/${ns}/web-web`,
    ]);
  }, 120_000);
});
