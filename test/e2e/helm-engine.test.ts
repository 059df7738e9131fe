// The resident helm engine (tools/helm-engine, binaries/helm/engine.ts) against a real tenant plane:
// helm's actions from the CLI arguments flotilla builds, the post-render step called back into this
// process, helm's Secret storage as `helm` itself writes it, helm's failures as the same typed errors,
// and an engine that stays usable after a cancelled request or its own death.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  HelmCancelledError,
  HelmCommandError,
  HelmError,
  HelmReleaseNotFoundError,
  runHelmEngine,
  stopHelmEngine,
} from "../../src/binaries/helm/index.js";
import { kubeconfigFor } from "../../src/controllers/helmrelease/actions/kubeconfig-file.js";
import { ReleaseStorage } from "../../src/controllers/helmrelease/storage/release.js";
import { endpointFromKubeconfigFile } from "../../src/kube/kubeconfig.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { adminClient, eventually, plane, testNamespace } from "../support/fleet-context.js";

const tenant = adminClient("tenant1");
const kubeconfig = kubeconfigFor(endpointFromKubeconfigFile(plane("tenant1").kubeconfig));
let ns: string;
let dir: string;

/** A chart directory: Chart.yaml plus the given templates. */
function chart(name: string, templates: Record<string, string>): string {
  const at = join(dir, name);
  mkdirSync(join(at, "templates"), { recursive: true });
  writeFileSync(join(at, "Chart.yaml"), `apiVersion: v2\nname: ${name}\nversion: 1.0.0\n`);
  writeFileSync(join(at, "values.yaml"), "message: hello\n");
  for (const [file, text] of Object.entries(templates)) writeFileSync(join(at, "templates", file), text);
  return at;
}

const configMap =
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-cm\ndata:\n  message: {{ .Values.message | quote }}\n";
// No provisioner on the plane: the claim stays Pending, so helm's wait never ends on its own.
const claim =
  "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {{ .Release.Name }}-data\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Mi}}\n";

const labelled = (manifests: string) =>
  manifests.replace(/^metadata:\n/gm, "metadata:\n  labels: {rendered-by: flotilla}\n");
const cmPath = (name: string) => `/api/v1/namespaces/${ns}/configmaps/${name}`;

beforeAll(async () => {
  ns = await testNamespace(tenant, "helmengine");
  dir = makeWorkDir("flotilla-helm-engine-");
}, 60_000);
afterAll(() => stopHelmEngine());

describe("the resident helm engine", () => {
  it("installs and upgrades from helm's CLI arguments, post-rendering in this process, into helm's storage", async () => {
    const web = chart("web", { "cm.yaml": configMap });
    const values = join(dir, "values.json");
    writeFileSync(values, JSON.stringify({ message: "second" }));
    const post = { kubeconfig, postRender: labelled };
    // Two releases at once in the one engine.
    await Promise.all(
      ["one", "two"].map((r) =>
        runHelmEngine(["install", "-n", ns, "--wait=watcher", "--post-renderer", "x", "--", r, web], post),
      ),
    );
    await runHelmEngine(
      ["upgrade", "-n", ns, "-f", values, "--history-max", "5", "--post-renderer", "x", "--", "one", web],
      post,
    );
    const cm = await tenant.get<{
      metadata: { labels: Record<string, string>; managedFields: { manager: string }[] };
      data: Record<string, string>;
    }>(cmPath("one-cm"));
    expect(cm.metadata.labels["rendered-by"]).toBe("flotilla");
    // Written as helm's field manager, as the helm binary writes: drift detection looks for it.
    expect(cm.metadata.managedFields.map((f) => f.manager)).toEqual(["helm"]);
    expect(cm.data.message).toBe("second");
    const history = await new ReleaseStorage(tenant, ns).history("one");
    expect(history.map((r) => [r.version, r.info.status])).toEqual([
      [1, "superseded"],
      [2, "deployed"],
    ]);
    expect(history[1]!.config).toEqual({ message: "second" });
  }, 120_000);

  it("fails with helm's own words as the same typed errors the helm binary's runs get", async () => {
    const missing = runHelmEngine(["rollback", "-n", ns, "--", "nowhere", "1"], { kubeconfig });
    await expect(missing).rejects.toBeInstanceOf(HelmReleaseNotFoundError);
    const unknown = runHelmEngine(["install", "-n", ns, "--atomic", "--", "x", join(dir, "web")], { kubeconfig });
    await expect(unknown).rejects.toThrow(/unknown flag: --atomic/);
    const refused = runHelmEngine(
      ["install", "-n", ns, "--post-renderer", "x", "--", "refused", chart("r", { "cm.yaml": configMap })],
      {
        kubeconfig,
        postRender: () => {
          throw new Error("patch 0 names no object");
        },
      },
    );
    await expect(refused).rejects.toBeInstanceOf(HelmCommandError);
    await expect(refused).rejects.toThrow(/patch 0 names no object/);
    await expect(tenant.get(cmPath("refused-cm"))).rejects.toThrow(/not found/i);
  }, 120_000);

  it("cancels a waiting action when its signal aborts, and serves the next one", async () => {
    const pending = chart("pending", { "pvc.yaml": claim });
    const abort = new AbortController();
    const waiting = runHelmEngine(
      ["install", "-n", ns, "--wait=watcher", "--timeout", "5m", "--", "pending", pending],
      {
        kubeconfig,
        signal: abort.signal,
      },
    );
    // Aborted once helm has written its pending release: the action is under way in the engine.
    await waitForRelease("pending");
    abort.abort();
    await expect(waiting).rejects.toBeInstanceOf(HelmCancelledError);
    await runHelmEngine(["uninstall", "-n", ns, "--ignore-not-found", "--", "pending"], { kubeconfig });
    expect(await new ReleaseStorage(tenant, ns).history("pending")).toEqual([]);
  }, 120_000);

  it("fails the requests of an engine that died, and starts a new one for the next", async () => {
    const waiting = runHelmEngine(["install", "-n", ns, "--wait=watcher", "--", "orphan", join(dir, "pending")], {
      kubeconfig,
    });
    await waitForRelease("orphan");
    stopHelmEngine();
    await expect(waiting).rejects.toBeInstanceOf(HelmError);
    await expect(waiting).rejects.toThrow(/helm engine .* exited/);
    await runHelmEngine(["uninstall", "-n", ns, "--", "two"], { kubeconfig });
    await expect(tenant.get(cmPath("two-cm"))).rejects.toThrow(/not found/i);
  }, 120_000);
});

/** Helm wrote the release's first revision: its action is under way in the engine. */
const waitForRelease = (name: string) =>
  eventually(
    `release ${name} in helm's storage`,
    async () => (await new ReleaseStorage(tenant, ns).history(name)).length > 0,
    90_000,
    100,
  );
