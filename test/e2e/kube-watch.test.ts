// Watches and informers survive a kube-apiserver restart; concurrent clients never mix credentials.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KubeClient } from "../../src/kube/client.js";
import { Cluster } from "../../src/kube/cluster.js";
import { ForbiddenError } from "../../src/kube/errors.js";
import { Informer } from "../../src/kube/informer.js";
import { endpointFromKubeconfig, endpointFromKubeconfigFile } from "../../src/kube/kubeconfig.js";
import type { WatchEvent } from "../../src/kube/watch.js";
import { Watcher } from "../../src/kube/watch.js";
import { restartComponent } from "../../src/local/index.js";
import { eventually, plane, planeCluster, testFleet, testNamespace } from "../support/fleet-context.js";
import { startPausableTcpProxy } from "../support/pausable-tcp-proxy.js";
import { configMap } from "../support/objects.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const CM = { group: "", version: "v1", kind: "ConfigMap" };

describe("watch and informer across a kube-apiserver restart", () => {
  it("keeps delivering events and the informer cache converges after the restart", async () => {
    const cluster = planeCluster("management");
    const ns = await testNamespace(cluster.client, "watch");
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await cluster.client.create(path, configMap(ns, "before"));

    const events: string[] = [];
    const watcher = new Watcher(
      cluster,
      { gvk: CM, namespace: ns },
      {
        onSync: (items) => events.push(`sync ${items.map((i) => i.metadata.name).join(",")}`),
        onEvent: (e: WatchEvent) => events.push(`${e.type} ${e.object.metadata.name}`),
      },
    );
    const informer = new Informer(cluster, { gvk: CM, namespace: ns });
    informer.addIndex("by-color", (o) => [String((o.data as Record<string, string> | undefined)?.color ?? "none")]);
    watcher.start();
    informer.start();
    await informer.waitForSync(30_000);
    expect(informer.list().map((o) => o.metadata.name)).toContain("before");

    await cluster.client.create(path, configMap(ns, "during-1", { color: "red" }));
    await eventually("the first event", async () => events.includes("ADDED during-1"));

    await restartComponent(testFleet().dir, "management", "kube-apiserver");

    await cluster.client.create(path, configMap(ns, "after", { color: "red" }));
    await cluster.client.delete(`${path}/before`);
    await cluster.client.patch(`${path}/during-1`, "merge", { data: { color: "blue" } });

    await eventually(
      "events after the restart",
      async () => events.includes("ADDED after") && events.includes("DELETED before"),
      60_000,
    );
    // kube-root-ca.crt is the controller-manager's, in every namespace.
    const ours = () => informer.list().filter((o) => o.metadata.name !== "kube-root-ca.crt");
    await eventually(
      "the informer to converge",
      async () => {
        const names = ours()
          .map((o) => o.metadata.name)
          .sort()
          .join(",");
        return names === "after,during-1" && informer.byIndex("by-color", "blue").length === 1;
      },
      60_000,
    );
    expect(informer.byIndex("by-color", "red").map((o) => o.metadata.name)).toEqual(["after"]);
    // A restarted apiserver has a fresh watch cache: resuming may get 410 Gone, answered by a relist.
    expect(events.filter((e) => e.startsWith("sync")).length).toBeGreaterThanOrEqual(1);
    await Promise.all([watcher.stop(), informer.stop()]);
  });
});

describe("metadata-only informers", () => {
  it("sync on a namespace with nothing in it (the apiserver's PartialObjectMetadataList says items: null)", async () => {
    const cluster = planeCluster("management");
    const ns = await testNamespace(cluster.client, "nullitems");
    const informer = new Informer(cluster, {
      gvk: { group: "", version: "v1", kind: "Secret" },
      namespace: ns,
      metadataOnly: true,
    });
    informer.start();
    try {
      await informer.waitForSync(30_000);
      expect(informer.list()).toEqual([]);
    } finally {
      await informer.stop();
    }
  });
});

describe("a cluster that stops answering", () => {
  it.each([
    ["its first list", true],
    ["discovery of its kind", false],
  ])(
    "an informer stops at once while %s waits for an answer, instead of after the request timeout",
    async (_what, discovered) => {
      const endpoint = endpointFromKubeconfigFile(plane("management").kubeconfig);
      const proxy = await startPausableTcpProxy(Number(new URL(endpoint.server).port));
      try {
        const cluster = new Cluster({ ...endpoint, server: `https://127.0.0.1:${proxy.port}` });
        const ns = await testNamespace(planeCluster("management").client, "quiet");
        if (discovered) await cluster.mapping(CM); // discovery answered: the list is what waits
        proxy.pause();
        const informer = new Informer(cluster, { gvk: CM, namespace: ns });
        informer.start();
        const synced = informer.waitForSync(120_000).then(
          () => "synced",
          (err: Error) => err.message,
        );
        await eventually("the informer's request to reach the silent cluster", async () => proxy.held > 0);
        const started = Date.now();
        await informer.stop();
        const stoppedIn = Date.now() - started;
        expect(await synced).toMatch(/stopped/);
        // A stop that waited for the request would take its connect timeout (10 s) or its timeout (60 s).
        expect(stoppedIn).toBeLessThan(5_000);
      } finally {
        await proxy.close();
      }
    },
  );
});

describe("credentials", () => {
  it("two clients of one cluster with different credentials used concurrently never mix them", async () => {
    const admin = planeCluster("tenant1");
    const ns = await testNamespace(admin.client, "creds");
    await admin.client.create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: "viewer" } });
    const token = (
      await admin.client.create<{ status: { token: string } }>(
        `/api/v1/namespaces/${ns}/serviceaccounts/viewer/token`,
        {
          apiVersion: "authentication.k8s.io/v1",
          kind: "TokenRequest",
          spec: { expirationSeconds: 600 },
        },
      )
    ).status.token;
    // Same server, same CA, even the same user *name* as the admin kubeconfig: only the credential differs.
    const adminEndpoint = endpointFromKubeconfigFile(plane("tenant1").kubeconfig);
    const viewer = new KubeClient({
      name: adminEndpoint.name,
      server: adminEndpoint.server,
      caPem: adminEndpoint.caPem,
      token,
    });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0
          ? admin.client.get(`/api/v1/namespaces/kube-system/secrets`).then(() => "admin-ok")
          : viewer.get(`/api/v1/namespaces/kube-system/secrets`).then(
              () => "viewer-ALLOWED",
              (err) =>
                err instanceof ForbiddenError && err.message.includes(`system:serviceaccount:${ns}:viewer`)
                  ? "viewer-forbidden"
                  : `viewer-${err}`,
            ),
      ),
    );
    expect(new Set(results)).toEqual(new Set(["admin-ok", "viewer-forbidden"]));
  });

  it("uses an exec credential plugin only when allowed, and the token it returns", async () => {
    const admin = planeCluster("tenant1");
    const ns = await testNamespace(admin.client, "exec");
    await admin.client.create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: "robot" } });
    const { status } = await admin.client.create<{ status: { token: string } }>(
      `/api/v1/namespaces/${ns}/serviceaccounts/robot/token`,
      {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenRequest",
        spec: { expirationSeconds: 600 },
      },
    );
    const dir = makeWorkDir("flotilla-exec-");
    const plugin = join(dir, "credential-plugin.sh");
    const credential = {
      apiVersion: "client.authentication.k8s.io/v1",
      kind: "ExecCredential",
      status: { token: status.token },
    };
    writeFileSync(plugin, `#!/bin/sh\necho '${JSON.stringify(credential)}'\n`, { mode: 0o755 });
    const ep = endpointFromKubeconfigFile(plane("tenant1").kubeconfig);
    const kubeconfig = JSON.stringify({
      clusters: [
        {
          name: "t1",
          cluster: { server: ep.server, "certificate-authority-data": Buffer.from(ep.caPem!).toString("base64") },
        },
      ],
      users: [{ name: "robot", user: { exec: { apiVersion: "client.authentication.k8s.io/v1", command: plugin } } }],
      contexts: [{ name: "robot@t1", context: { cluster: "t1", user: "robot" } }],
      "current-context": "robot@t1",
    });
    expect(() => endpointFromKubeconfig(kubeconfig, { source: "robot kubeconfig" })).toThrow(
      "exec credential plugin, which is refused",
    );
    const robot = new KubeClient(endpointFromKubeconfig(kubeconfig, { source: "robot kubeconfig", allowExec: true }));
    const review = await robot.create<{ status: { userInfo: { username: string } } }>(
      "/apis/authentication.k8s.io/v1/selfsubjectreviews",
      {
        apiVersion: "authentication.k8s.io/v1",
        kind: "SelfSubjectReview",
      },
    );
    expect(review.status.userInfo.username).toBe(`system:serviceaccount:${ns}:robot`);
  });

  it("two clusters with different CAs and client certificates are used concurrently without mixing", async () => {
    const t1 = planeCluster("tenant1");
    const t2 = planeCluster("tenant2");
    const ns1 = await testNamespace(t1.client, "mix");
    const ns2 = await testNamespace(t2.client, "mix");
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? t1.client.create(`/api/v1/namespaces/${ns1}/configmaps`, configMap(ns1, `cm-${i}`))
          : t2.client.create(`/api/v1/namespaces/${ns2}/configmaps`, configMap(ns2, `cm-${i}`)),
      ),
    );
    const names = async (c: Cluster, ns: string) =>
      (await c.list(CM, ns)).map((o) => o.metadata.name).filter((n) => n.startsWith("cm-"));
    expect((await names(t1, ns1)).length).toBe(20);
    expect((await names(t2, ns2)).length).toBe(20);
    expect((await names(t1, ns1)).every((n) => Number(n.slice(3)) % 2 === 0)).toBe(true);
  });
});
