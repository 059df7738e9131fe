// What a HelmRelease composes, through the real controller and the real helm, checked on the live
// objects: post-renderers (strategic-merge and JSON 6902 patches, images), commonMetadata and the
// helm.toolkit.fluxcd.io/name|namespace labels on every object, valuesFrom with a missing optional
// source, dependsOn between releases, a chart built from a GitRepository, and drift corrected except
// where an ignore rule says so.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/api/meta/object.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { benchChart } from "../support/charts.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { startGitHttpServer, type GitHttpServer } from "../support/git-http-server.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const mgmt = planeCluster("management");
let env: HelmReleaseEnv;
let git: GitHttpServer;
const BENCH = { name: "bench", version: "1.0.0" };

const live = (plural: string, name: string, group = "api/v1") =>
  mgmt.client.get<KubeObject & { spec?: Record<string, unknown>; data?: Record<string, string> }>(
    `/${group}/namespaces/${env.ns}/${plural}/${name}`,
  );

beforeAll(async () => {
  // A dependency is rechecked every 5s instead of 30s: the dependsOn test waits less.
  env = await startHelmReleaseEnv("hr-compose", { extraArgs: ["--requeue-dependency=5s"] });
  await benchChart(env.charts);
  git = await startGitHttpServer();
}, 120_000);
afterAll(async () => {
  await env?.stop();
  await git?.close();
});

describe("HelmRelease composition", () => {
  it("post-renders with patches and images, and labels every object with commonMetadata and the owner labels", async () => {
    await env.createRelease("rendered", BENCH, {
      commonMetadata: { labels: { team: "platform" }, annotations: { "example.com/owner": "sre" } },
      postRenderers: [
        {
          kustomize: {
            patches: [
              {
                target: { kind: "ConfigMap" },
                patch: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: any\n  labels:\n    patched: smp\n",
              },
              {
                target: { kind: "Service" },
                patch: '[{"op": "replace", "path": "/spec/ports/0/port", "value": 8081}]',
              },
            ],
            images: [{ name: "nginx", newName: "registry.example.com/nginx", newTag: "1.27.3" }],
          },
        },
      ],
    });
    await env.waitReady("rendered");
    const objects = await Promise.all([
      live("configmaps", "rendered"),
      live("serviceaccounts", "rendered"),
      live("services", "rendered"),
      live("deployments", "rendered", "apis/apps/v1"),
    ]);
    for (const o of objects) {
      expect(o.metadata.labels, o.kind).toMatchObject({
        team: "platform",
        "helm.toolkit.fluxcd.io/name": "rendered",
        "helm.toolkit.fluxcd.io/namespace": env.ns,
      });
      expect(o.metadata.annotations?.["example.com/owner"], o.kind).toBe("sre");
    }
    const [cm, , svc, deploy] = objects;
    expect(cm!.metadata.labels?.patched).toBe("smp");
    expect((svc!.spec as { ports: { port: number }[] }).ports[0]!.port).toBe(8081);
    const containers = (deploy!.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec
      .containers;
    expect(containers[0]!.image).toBe("registry.example.com/nginx:1.27.3");
  }, 240_000);

  it("installs with a valuesFrom source that is missing but optional", async () => {
    await env.createRelease("optional", BENCH, {
      valuesFrom: [{ kind: "ConfigMap", name: "not-there", optional: true }],
      values: { message: "inline" },
    });
    await env.waitReady("optional");
    expect((await live("configmaps", "optional")).data?.message).toBe("inline");
  }, 240_000);

  it("dependsOn: waits with DependencyNotReady naming the dependency, then installs once it is Ready", async () => {
    await env.createRelease("dependent", BENCH, { dependsOn: [{ name: "dependency" }] });
    const waiting = await eventually(
      "the dependent waiting",
      async () => {
        const o = await env.hr("dependent");
        return condOf(o, "Ready")?.reason === "DependencyNotReady" ? o : undefined;
      },
      120_000,
      1000,
    );
    expect(condOf(waiting, "Ready")!.message).toContain(`'${env.ns}/dependency'`);
    expect(
      await mgmt.client.get<{ items: unknown[] }>(`/api/v1/namespaces/${env.ns}/secrets`, {
        labelSelector: "owner=helm,name=dependent",
      }),
    ).toMatchObject({ items: [] });
    await env.createRelease("dependency", BENCH);
    await env.waitReady("dependency");
    await env.waitReady("dependent", "True", 180_000);
  }, 360_000);

  it("installs a chart built from a GitRepository", async () => {
    const repo = await git.createRepo("charts-in-git");
    await repo.commit(
      {
        "charts/hello/Chart.yaml": "apiVersion: v2\nname: hello\nversion: 0.3.0\n",
        "charts/hello/values.yaml": "greeting: hi\n",
        "charts/hello/templates/cm.yaml":
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-hello\ndata:\n  greeting: {{ .Values.greeting }}\n",
      },
      "chart hello 0.3.0",
    );
    const shard = { "flotilla.dev/shard": env.ns };
    await mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${env.ns}/gitrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "charts-git", namespace: env.ns, labels: shard },
      spec: { interval: "10m", url: repo.url, ref: { branch: "main" } },
    });
    await env.createRelease(
      "fromgit",
      { name: "./charts/hello", version: "*" },
      {
        chart: {
          metadata: { labels: shard },
          spec: { chart: "./charts/hello", sourceRef: { kind: "GitRepository", name: "charts-git" } },
        },
        values: { greeting: "hello from git" },
      },
    );
    const o = await env.waitReady("fromgit");
    expect(condOf(o, "Ready")!.message).toBe(
      `Helm install succeeded for release ${env.ns}/fromgit.v1 with chart hello@0.3.0`,
    );
    expect((await live("configmaps", "fromgit-hello")).data?.greeting).toBe("hello from git");
  }, 240_000);

  it("drift: an edited ConfigMap is put back while a Deployment scaled by hand under an ignore rule is left alone", async () => {
    await env.createRelease("drifty", BENCH, {
      driftDetection: { mode: "enabled", ignore: [{ paths: ["/spec/replicas"], target: { kind: "Deployment" } }] },
    });
    await env.waitReady("drifty");
    await mgmt.client.patch(
      `/api/v1/namespaces/${env.ns}/configmaps/drifty`,
      "merge",
      { data: { message: "by hand" } },
      {
        fieldManager: "kubectl-edit",
      },
    );
    await mgmt.client.patch(
      `/apis/apps/v1/namespaces/${env.ns}/deployments/drifty`,
      "merge",
      { spec: { replicas: 3 } },
      {
        fieldManager: "kubectl-scale",
      },
    );
    const at = new Date().toISOString();
    await mgmt.client.patch(env.hrPath("drifty"), "merge", {
      metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } },
    });
    await eventually(
      "the reconcile request handled",
      async () => (await env.hr("drifty")).status?.lastHandledReconcileAt === at,
      120_000,
      1000,
    );
    expect((await live("configmaps", "drifty")).data?.message).toBe("hello");
    expect((await live("deployments", "drifty", "apis/apps/v1")).spec?.replicas).toBe(3);
    const events = await mgmt.client.get<{ items: { reason: string; involvedObject: { name: string } }[] }>(
      `/api/v1/namespaces/${env.ns}/events`,
    );
    expect(events.items.filter((e) => e.involvedObject.name === "drifty").map((e) => e.reason)).toContain(
      "DriftCorrected",
    );
  }, 240_000);
});
