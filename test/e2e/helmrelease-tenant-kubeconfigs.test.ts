// HelmReleases on tenant1 through kubeconfig Secrets as Kamaji hands them out (decision 0044), with the
// HelmRelease controller in-process so the connection pool can be read: a Secret rewritten with a new
// certificate is picked up within seconds (the old credential's connection closed, the drift watch
// streaming on the new one) and, the old certificate revoked, drift is still put back; a release whose
// Secret belongs to a WriteLimited TenantControlPlane is held with a message and released once writable.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HelmRelease, helmReleaseCrd } from "../../src/api/helm/helmrelease.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { ociRepositoryCrd } from "../../src/api/source/oci-repository.js";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { helmReleaseController } from "../../src/controllers/helmrelease/setup.js";
import { createController } from "../../src/controllers/kit/setup.js";
import { KubeClient } from "../../src/kube/client.js";
import { clusterPool, fingerprintOf } from "../../src/kube/cluster-pool.js";
import { ForbiddenError } from "../../src/kube/errors.js";
import { endpointFromKubeconfig } from "../../src/kube/kubeconfig.js";
import type { Controller } from "../../src/runtime/controller.js";
import { EventRecorder } from "../../src/runtime/events.js";
import { createLogger } from "../../src/runtime/logger.js";
import { SourceFetcher } from "../../src/sources/consumer.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ChartRepo, startChartRepo } from "../support/chart-repo.js";
import { eventually, plane, testNamespace } from "../support/fleet-context.js";
import { type Harness, startHarness } from "../support/harness.js";
import { issueKubeconfig } from "../support/plane-identity.js";
import { type SourceControllers, startSourceControllers } from "../support/source-controllers.js";
import {
  allowAll,
  createTenantPlane,
  revoke,
  revokeAll,
  setTenantPlaneStatus,
  tenant1,
  writeKubeconfigSecret,
} from "../support/tenant-identities.js";

const suffix = randomBytes(3).toString("hex");
let h: Harness<"app">;
let ns: string;
let remoteNs: string;
let charts: ChartRepo;
let sources: SourceControllers;
let controller: Controller;

const hrPath = (name: string) => `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases/${name}`;
const ready = async (name: string) =>
  (await h.mgmt.client.get<HelmRelease>(hrPath(name))).status?.conditions?.find((c) => c.type === "Ready");
const remoteMessage = async (release: string) =>
  (
    await tenant1.client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${remoteNs}/configmaps/${release}-tk`,
    )
  ).data.message;

/** An edit by someone else, from another process: the drift watch ignores this process's own writes. */
const handEdit = () =>
  execFileSync(join(toolsDir(), "bin", "kubectl"), [
    ...["--kubeconfig", plane("tenant1").kubeconfig, "-n", remoteNs, "patch", "configmap", "rot-tk"],
    ...["--type", "merge", "-p", JSON.stringify({ data: { message: "edited" } })],
  ]);

/** A HelmRelease of chart tk on tenant1 through `secret`, hour-long interval: only events bring reconciles. */
async function createRelease(name: string, secret: string, message: string) {
  await h.mgmt.client.create(`/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases`, {
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    kind: "HelmRelease",
    metadata: { name, namespace: ns },
    spec: {
      interval: "1h",
      timeout: "60s",
      releaseName: name,
      targetNamespace: remoteNs,
      storageNamespace: remoteNs,
      kubeConfig: { secretRef: { name: secret } },
      chart: { spec: { chart: "tk", version: "1.0.0", sourceRef: { kind: "HelmRepository", name: "charts" } } },
      values: { message },
    },
  });
  await eventually(`HelmRelease ${name} Ready`, async () => (await ready(name))?.status === "True", 180_000);
}

beforeAll(async () => {
  // OCIRepository too: the HelmRelease controller watches chartRef sources, whichever file ran first.
  const crds = [helmReleaseCrd(), ociRepositoryCrd()] as unknown as KubeObject[];
  h = await startHarness({ namespaces: { app: "hrtk" }, crds });
  ns = h.ns.app;
  charts = await startChartRepo();
  h.onCleanup(() => charts.close());
  await charts.addChart("tk", "1.0.0");
  sources = await startSourceControllers(h.mgmt, ns, { helm: true, requeueDependencyMs: 1000 });
  h.onCleanup(() => sources.stop());
  await sources.create("helmrepositories", "charts", { url: charts.url });
  const log = createLogger({ level: "error", write: () => {} });
  const deps = {
    cluster: h.mgmt,
    events: new EventRecorder(h.mgmt.client, "helm-controller", log),
    sources: new SourceFetcher(h.mgmt.client, makeWorkDir("flotilla-sources-")),
    flags: { requeueDependencyMs: 1000, driftWatch: true },
  };
  controller = createController(helmReleaseController, deps, { cluster: h.mgmt, log, namespace: ns });
  await controller.start();
  h.onCleanup(() => controller.stop());
  remoteNs = await testNamespace(tenant1.client, "hrtk");
}, 180_000);

afterAll(async () => {
  await h?.cleanup();
  await revokeAll();
}, 120_000);

describe("a HelmRelease's kubeconfig Secret rewritten with a new certificate", () => {
  it("is used within seconds, the old connection closed, and drift is put back once the old one is revoked", async () => {
    const users = { old: `hrtk-old-${suffix}`, new: `hrtk-new-${suffix}` };
    const kubeconfigs = {
      old: issueKubeconfig("tenant1", { commonName: users.old }),
      new: issueKubeconfig("tenant1", { commonName: users.new }),
    };
    const endpoints = {
      old: endpointFromKubeconfig(kubeconfigs.old, { source: "old" }),
      new: endpointFromKubeconfig(kubeconfigs.new, { source: "new" }),
    };
    await allowAll(users.old);
    await allowAll(users.new);
    await writeKubeconfigSecret(h.mgmt, ns, "rotating", kubeconfigs.old);
    await createRelease("rot", "rotating", "one");
    const oldEntry = clusterPool.acquire(endpoints.old);
    await eventually("the drift watch streaming with the old credential", async () => oldEntry.requestsInFlight > 0);

    const rewritten = Date.now();
    await writeKubeconfigSecret(h.mgmt, ns, "rotating", kubeconfigs.new);
    // At once, while the drift watch changes hands: the new watch judges its first list against the old one's.
    handEdit();
    const newFingerprint = fingerprintOf(endpoints.new);
    const seconds = await eventually(
      "the HelmRelease and its drift watch on the new credential, the old connection closed",
      async () => {
        const entry = clusterPool.stats().entries.find((e) => e.fingerprint === newFingerprint);
        const ok = oldEntry.closed && !oldEntry.connected && entry !== undefined && entry.inFlight > 0;
        return ok ? (Date.now() - rewritten) / 1000 : undefined;
      },
      120_000, // generous for a loaded machine: with an hour-long interval, any pickup is the Secret watch's
    );
    console.log(`HelmRelease rotation picked up in ${seconds.toFixed(1)} s`);
    await eventually("the edit made meanwhile put back", async () => (await remoteMessage("rot")) === "one", 60_000);

    // The old certificate revoked (as Kamaji's rotation does), a hand edit is put back with the new one.
    await revoke(users.old);
    const cm = `/api/v1/namespaces/${remoteNs}/configmaps/rot-tk`;
    expect(await new KubeClient(endpoints.old).get(cm).catch((e: unknown) => e)).toBeInstanceOf(ForbiddenError);
    handEdit();
    await eventually("the hand edit put back", async () => (await remoteMessage("rot")) === "one", 60_000);
    expect((await ready("rot"))?.status).toBe("True");
  }, 300_000);
});

describe("a HelmRelease whose kubeconfig Secret belongs to a WriteLimited TenantControlPlane", () => {
  it("is held with a message instead of failing its upgrade, and upgraded once the plane accepts writes", async () => {
    const name = `wl-${suffix}`;
    const setPlaneStatus = (status: string) => setTenantPlaneStatus(h.mgmt, ns, name, status);
    // The plane's admin kubeconfig, labelled as Kamaji labels it.
    await writeKubeconfigSecret(h.mgmt, ns, `${name}-kubeconfig`, readFileSync(plane("tenant1").kubeconfig, "utf8"), {
      "kamaji.clastix.io/name": name,
    });
    await createTenantPlane(h.mgmt, ns, name, `${name}-kubeconfig`);
    await createRelease("wl", `${name}-kubeconfig`, "one");

    await setPlaneStatus("WriteLimited");
    await h.mgmt.client.patch(hrPath("wl"), "merge", { spec: { values: { message: "two" } } });
    const held = await eventually(
      "the HelmRelease held",
      async () => {
        const c = await ready("wl");
        return c?.reason === "WriteLimited" ? c : undefined;
      },
      120_000,
    );
    expect(held).toMatchObject({
      status: "False",
      message: `TenantControlPlane ${ns}/${name} is WriteLimited (its spec.writePermissions refuse writes): applies are held until it accepts writes (kubeconfig secret '${ns}/${name}-kubeconfig')`,
    });
    expect(await remoteMessage("wl")).toBe("one");
    expect((await h.mgmt.client.get<HelmRelease>(hrPath("wl"))).status?.failures ?? 0).toBe(0);

    const released = Date.now();
    await setPlaneStatus("Ready");
    await eventually("upgraded once writable", async () => (await remoteMessage("wl")) === "two", 180_000);
    console.log(`HelmRelease released ${((Date.now() - released) / 1000).toFixed(1)} s after the plane was Ready`);
    await eventually("Ready again", async () => (await ready("wl"))?.status === "True", 120_000);
  }, 300_000);
});
