// The real `flotilla controller` process serves /healthz, /readyz and /metrics; after it reconciles a
// GitRepository, /metrics (Prometheus text) holds Flux's gotk_reconcile_duration_seconds histogram
// and the gotk_reconcile_condition gauges for that object.
import { afterAll, describe, expect, it } from "vitest";
import { startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { startGitHttpServer } from "../support/git-http-server.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const cluster = planeCluster("management");
const git = await startGitHttpServer();
afterAll(() => git.close());

describe("flotilla controller endpoints", () => {
  it("serve /healthz, /readyz and Prometheus /metrics with reconcile durations and Ready condition gauges, and /metrics alone on --metrics-addr", async () => {
    const ns = await testNamespace(cluster.client, "endpoints");
    const controller = startController({
      namespace: ns,
      shard: ns,
      storagePath: makeWorkDir("flotilla-endpoints-"),
    });
    const url = await controller.healthUrl();
    const healthz = await fetch(`${url}/healthz`);
    expect([healthz.status, await healthz.text()]).toEqual([200, "ok"]);
    const readyz = await fetch(`${url}/readyz`);
    expect([readyz.status, await readyz.text()]).toEqual([200, "ok"]);
    expect((await fetch(`${url}/nope`)).status).toBe(404);

    const repo = await git.createRepo("metrics");
    await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "metrics", namespace: ns, labels: { "flotilla.dev/shard": ns } },
      spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
    });
    const series = `kind="GitRepository",name="metrics",namespace="${ns}"`;
    const metrics = await eventually(
      "the Ready=True gauge and the finished reconcile counted",
      async () => {
        const res = await fetch(`${url}/metrics`);
        const text = await res.text();
        // The gauge moves with the status write; the duration and the reconcile total once the reconcile
        // returns, just after: wait for all three rather than read between them.
        return res.headers.get("content-type")?.startsWith("text/plain") &&
          text.includes(`gotk_reconcile_condition{${series},type="Ready",status="True"} 1`) &&
          new RegExp(`gotk_reconcile_duration_seconds_count\\{${series}\\} [1-9]`).test(text) &&
          /controller_runtime_reconcile_total\{controller="gitrepository",result="success"\} [1-9]/.test(text)
          ? text
          : undefined;
      },
      30_000,
    );
    expect(metrics).toContain("# TYPE gotk_reconcile_duration_seconds histogram");
    expect(metrics).toMatch(new RegExp(`gotk_reconcile_duration_seconds_count\\{${series}\\} [1-9]`));
    expect(metrics).toContain(`gotk_reconcile_duration_seconds_bucket{${series},le="+Inf"}`);
    expect(metrics).toContain(`gotk_reconcile_condition{${series},type="Ready",status="False"} 0`);
    expect(metrics).toContain(`gotk_reconcile_condition{${series},type="Ready",status="Unknown"} 0`);
    expect(metrics).toMatch(/controller_runtime_reconcile_total\{controller="gitrepository",result="success"\} [1-9]/);
    // The process's memory, for soaks and operators: the resident set and the JavaScript heap in use.
    expect(metrics).toMatch(/^process_resident_memory_bytes [1-9]\d{6,}$/m);
    expect(metrics).toMatch(/^nodejs_heap_size_used_bytes [1-9]\d{5,}$/m);

    // The --metrics-addr listener (the Deployment's http-prom port, which allow-scraping opens to other
    // namespaces) serves the same registry and nothing else: no probes, no artifacts.
    const running = controller.logs.find((l) => l.msg === "flotilla controller running")!;
    const metricsUrl = `http://${String(running.metrics)}`;
    expect(metricsUrl).not.toBe(url);
    const scraped = await fetch(`${metricsUrl}/metrics`);
    expect(scraped.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await scraped.text()).toContain(`gotk_reconcile_condition{${series},type="Ready",status="True"} 1`);
    expect((await fetch(`${metricsUrl}/healthz`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/readyz`)).status).toBe(404);
    controller.child.kill("SIGTERM");
    await controller.exited();
  });
});
