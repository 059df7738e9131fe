// The Kustomization fields that shape what is applied (targetNamespace, namePrefix/Suffix, patches,
// images, components, commonMetadata) and how (wait, healthChecks, suspend, force), each against
// the real apiserver with Flux's conditions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/fleet-context.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

let h: KustomizeHarness;
const y = (o: unknown) => JSON.stringify(o);
const deployment = (name: string, image: string) =>
  y({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "app", image }] } },
    },
  });
const job = (image: string) =>
  y({
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "migrate" },
    spec: { template: { spec: { restartPolicy: "Never", containers: [{ name: "m", image }] } } },
  });

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "fields" });
  await h.commit(
    {
      "shaped/kustomization.yaml": "resources:\n- app.yaml\n",
      "shaped/app.yaml": [
        deployment("web", "ghcr.io/example/web:1.0"),
        y({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "web-config" }, data: { a: "1" } }),
      ].join("\n---\n"),
      "shaped/extra/kustomization.yaml":
        "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n- extra.yaml\n",
      "shaped/extra/extra.yaml": y({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "extra" } }),
      "healthy/app.yaml": deployment("ok", "registry.example/ok:1"),
      "unhealthy/app.yaml": deployment("broken", "registry.invalid/never:1"),
      "suspended/cm.yaml": y({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "paused" }, data: { v: "1" } }),
      "force/job.yaml": job("registry.example/migrate:1"),
    },
    "spec field cases",
  );
});

afterAll(async () => {
  await h?.stop();
});

describe("Kustomization spec fields", () => {
  it("targetNamespace, namePrefix/Suffix, patches, images, components and commonMetadata shape what is applied", async () => {
    await h.createKs("shaped", {
      path: "./shaped",
      targetNamespace: h.ns,
      namePrefix: "pre-",
      nameSuffix: "-suf",
      components: ["extra"],
      images: [{ name: "ghcr.io/example/web", newTag: "2.0" }],
      patches: [
        {
          patch: y({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" }, spec: { replicas: 3 } }),
          target: { kind: "Deployment", name: "web" },
        },
      ],
      commonMetadata: { labels: { team: "web" }, annotations: { "owner.example/contact": "web@example.com" } },
    });
    const ks = await h.waitReady("shaped");
    expect(ks.status!.inventory!.entries.map((e) => e.id).sort()).toEqual(
      [
        `${h.ns}_pre-extra-suf__ConfigMap`,
        `${h.ns}_pre-web-config-suf__ConfigMap`,
        `${h.ns}_pre-web-suf_apps_Deployment`,
      ].sort(),
    );
    const web = (await h.mgmt.get({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "pre-web-suf", namespace: h.ns },
    })) as unknown as {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
      spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
    };
    expect(web.spec.replicas).toBe(3);
    expect(web.spec.template.spec.containers[0]!.image).toBe("ghcr.io/example/web:2.0");
    expect(web.metadata.labels.team).toBe("web");
    expect(web.metadata.annotations["owner.example/contact"]).toBe("web@example.com");
  });

  it("wait: true reports Healthy=True once the Deployment is available on the kwok node", async () => {
    await h.createKs("healthy", { path: "./healthy", targetNamespace: h.ns, wait: true, timeout: "1m" });
    const ks = await h.waitReady("healthy");
    expect(ks.status!.conditions!.find((c) => c.type === "Healthy")).toMatchObject({
      status: "True",
      reason: "Succeeded",
    });
  });

  it("healthChecks that never pass end in HealthCheckFailed at spec.timeout, with the pods' reason, keeping the inventory", async () => {
    await h.createKs("unhealthy", {
      path: "./unhealthy",
      targetNamespace: h.ns,
      // Long enough for kwok to report ImagePullBackOff on a loaded machine; the wait below outlasts it.
      timeout: "30s",
      healthChecks: [{ apiVersion: "apps/v1", kind: "Deployment", name: "broken", namespace: h.ns }],
    });
    const failed = await h.waitNotReady("unhealthy", "HealthCheckFailed", 180_000);
    expect(failed.message).toMatch(/^health check failed: .*Deployment\/.*broken.*ImagePullBackOff/);
    const ks = await h.getKs("unhealthy");
    expect(ks.status!.conditions!.find((c) => c.type === "Healthy")?.status).toBe("False");
    expect(ks.status!.inventory!.entries).toEqual([{ id: `${h.ns}_broken_apps_Deployment`, v: "v1" }]);
  });

  it("suspend: true stops applying new revisions until it is lifted", async () => {
    await h.createKs("suspended", { path: "./suspended", targetNamespace: h.ns });
    await h.waitReady("suspended");
    await h.mgmt.client.patch(h.ksPath("suspended"), "merge", { spec: { suspend: true } });
    await h.commit(
      {
        "suspended/cm.yaml": y({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "paused" }, data: { v: "2" } }),
      },
      "v2 while suspended",
    );
    // Evidence, not a sleep: the source has v2 (commit waits for it) and a reconcile requested after it was
    // handled (lastHandledReconcileAt), yet nothing was applied.
    await h.reconcileNow("suspended");
    const paused = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "paused", namespace: h.ns } };
    expect((await h.mgmt.get(paused))?.data).toEqual({ v: "1" });
    await h.mgmt.client.patch(h.ksPath("suspended"), "merge", { spec: { suspend: false } });
    await eventually(
      "the new revision after resuming",
      async () => ((await h.mgmt.get(paused))?.data as { v?: string } | undefined)?.v === "2",
    );
  });

  it("an immutable change fails without force and is applied by re-creating the object with force: true", async () => {
    await h.createKs("force", { path: "./force", targetNamespace: h.ns });
    await h.waitReady("force");
    await h.commit({ "force/job.yaml": job("registry.example/migrate:2") }, "new job image");
    const failed = await h.waitNotReady("force", "ReconciliationFailed");
    expect(failed.message).toContain(`Job/${h.ns}/migrate`);
    expect(failed.message).toMatch(/immutable/);
    await h.mgmt.client.patch(h.ksPath("force"), "merge", { spec: { force: true } });
    await h.waitReady("force");
    const live = (await h.mgmt.get({
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "migrate", namespace: h.ns },
    })) as unknown as { spec: { template: { spec: { containers: { image: string }[] } } } };
    expect(live.spec.template.spec.containers[0]!.image).toBe("registry.example/migrate:2");
  });
});
