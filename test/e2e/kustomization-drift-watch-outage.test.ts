// A tenant plane down does not stop the drift watch elsewhere (decision 0026): its watch fails and
// retries with backoff on its own, the management plane's drift is still put back in seconds, and once
// the plane is back its watch resumes and a hand edit there is put back too.
import { afterAll, describe, expect, it } from "vitest";
import { startComponent, stopComponent } from "../../src/local/index.js";
import { editAndTime, watchesListed } from "../support/drift.js";
import {
  appFiles,
  cmPath,
  createReadyKs,
  startDriftScenario,
  tearDown,
  tenantKubeconfig,
} from "../support/drift-kustomizations.js";
import { eventually, planeCluster, testFleet, testNamespace } from "../support/fleet-context.js";
import { startGitHttpServer } from "../support/git-http-server.js";

const mgmt = planeCluster("management");
const tenant2 = planeCluster("tenant2");
const git = await startGitHttpServer();
let tenant2Stopped = false;
afterAll(async () => {
  // Never leave the shared fleet with a plane down.
  if (tenant2Stopped) await startComponent(testFleet().dir, "tenant2", "kube-apiserver");
  await git.close();
});

describe("drift watch with a tenant plane down", () => {
  it("keeps putting back drift on the management plane, and resumes on the tenant plane once it is back", async () => {
    const ns = await testNamespace(mgmt.client, "driftout");
    const remoteNs = await testNamespace(tenant2.client, "driftout");
    const controller = await startDriftScenario(git, ns, { ...appFiles("mgmt", ns), ...appFiles("remote", remoteNs) });
    try {
      const secret = await tenantKubeconfig(ns, "tenant2");
      await Promise.all([
        createReadyKs(ns, "apps", { path: "./mgmt" }),
        createReadyKs(ns, "remote", { path: "./remote", kubeConfig: { secretRef: { name: secret } } }),
      ]);
      await Promise.all([watchesListed(controller, ns, "apps"), watchesListed(controller, ns, "remote")]);

      await stopComponent(testFleet().dir, "tenant2", "kube-apiserver");
      tenant2Stopped = true;
      await eventually("the tenant plane's watch failing", async () =>
        controller.logs.some((l) => l.msg === "drift watch failing, retrying with backoff"),
      );
      const whileDown = await editAndTime(mgmt, cmPath(ns), "greeting", "hand");
      console.log(`[drift-watch] management edit→restored while tenant2 is down: ${whileDown.toFixed(2)} s`);
      expect(whileDown).toBeLessThan(30);

      await startComponent(testFleet().dir, "tenant2", "kube-apiserver");
      tenant2Stopped = false;
      await eventually("tenant2 answering", () => tenant2.client.get("/version").then(() => true));
      // The watch comes back after its backoff (at most 30 s) and resumes from where it was.
      const afterOutage = await editAndTime(tenant2, cmPath(remoteNs), "greeting", "hand");
      console.log(`[drift-watch] tenant2 edit→restored after its outage: ${afterOutage.toFixed(2)} s`);
    } finally {
      await tearDown(controller, ns);
    }
  }, 180_000);
});
