// `flotilla build|diff helmrelease NAME` — the Flux ask of fluxcd/flux2#2808 — against a release the
// real controller installed with the real helm: the render carries the composed values (valuesFrom a
// Secret, spec.values) and the origin labels; diff is 0 when nothing would change, 1 with the change
// for a local --values override and for drift in the cluster, 2 for a chart path that is not there;
// the value taken from a Secret never appears (masked as ***).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { benchChart } from "../support/charts.js";
import { runCli } from "../support/cli.js";
import { plane, planeCluster } from "../support/fleet-context.js";
import { type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const BENCH = { name: "bench", version: "1.0.0" };
const SECRET_MESSAGE = "values-from-a-secret-7f3a";
let env: HelmReleaseEnv;
let work: string;
const mgmt = planeCluster("management");
const cli = (...args: string[]) => runCli([...args, "-n", env.ns, "--kubeconfig", plane("management").kubeconfig]);

beforeAll(async () => {
  // The drift test edits the release's ConfigMap by hand and diffs it: with the drift watch on, the
  // controller would put the value back within about a second, racing the diff.
  env = await startHelmReleaseEnv("cli-hr-preview", { extraArgs: ["--feature-gates=DriftWatch=false"] });
  await benchChart(env.charts);
  await mgmt.client.create(`/api/v1/namespaces/${env.ns}/secrets`, {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "web-values" },
    stringData: { "values.yaml": `message: ${SECRET_MESSAGE}\n` },
  });
  await env.createRelease("web", BENCH, { valuesFrom: [{ kind: "Secret", name: "web-values" }] });
  await env.waitReady("web");
  work = makeWorkDir("flotilla-hr-preview-");
}, 420_000);
afterAll(() => env?.stop());

describe("flotilla build helmrelease", () => {
  it("renders what the release installs: composed values, the release's namespace, origin labels", async () => {
    const r = await cli("build", "helmrelease", "web");
    expect(r.code, r.stderr).toBe(0);
    const docs = parseAllDocuments(r.stdout).map(
      (d) =>
        d.toJS() as {
          kind: string;
          metadata: { namespace: string; labels: Record<string, string> };
          data?: Record<string, string>;
        },
    );
    expect(docs.map((d) => d.kind).sort()).toEqual(["ConfigMap", "Deployment", "Service", "ServiceAccount"]);
    for (const d of docs) {
      expect(d.metadata.namespace).toBe(env.ns);
      expect(d.metadata.labels["helm.toolkit.fluxcd.io/name"]).toBe("web");
    }
    // The value came from a Secret: it is masked wherever it lands.
    expect(docs.find((d) => d.kind === "ConfigMap")!.data!.message).toBe("***");
    expect(r.stdout).toContain("  message: '***'\n");
    expect(r.stdout).not.toContain(SECRET_MESSAGE);
  });
});

describe("flotilla diff helmrelease", () => {
  it("exit 0 and nothing printed when the release is what the HelmRelease renders", async () => {
    const r = await cli("diff", "hr", "web");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
  });

  it("exit 1 with the change for a local values file laid over the composed values", async () => {
    const values = join(work, "staging.yaml");
    writeFileSync(values, "message: from-a-local-file\n");
    const r = await cli("diff", "hr", "web", "--values", values);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(
      `► ConfigMap/${env.ns}/web drifted\n\ndata.message\n  ± value change\n    - ***\n    + from-a-local-file\n`,
    );
  });

  it("exit 1 on drift in the cluster, and 2 for a chart path that is not there", async () => {
    await mgmt.client.patch(`/api/v1/namespaces/${env.ns}/configmaps/web`, "merge", { data: { message: "edited" } });
    const drifted = await cli("diff", "hr", "web");
    expect(drifted.code, drifted.stderr).toBe(1);
    expect(drifted.stdout).toContain("    - edited\n");
    const missing = join(work, "no-such-chart");
    const bad = await cli("diff", "hr", "web", "--chart-path", missing);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(/^✗ .*no-such-chart/);
  });

  it("renders a local chart directory instead of the HelmChart artifact", async () => {
    const chart = join(work, "local-chart");
    mkdirSync(join(chart, "templates"), { recursive: true });
    writeFileSync(join(chart, "Chart.yaml"), "apiVersion: v2\nname: bench\nversion: 1.0.1\n");
    writeFileSync(
      join(chart, "templates", "cm.yaml"),
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-extra\ndata:\n  message: {{ .Values.message | quote }}\n",
    );
    const r = await cli("diff", "hr", "web", "--chart-path", chart);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(`► ConfigMap/${env.ns}/web-extra created\n`);
    expect(r.stdout).toContain(`► Deployment/${env.ns}/web deleted\n`);
    expect(r.stdout).not.toContain(SECRET_MESSAGE);
  });
});

describe("flotilla create (applied, not exported) with the real controller", () => {
  const shard = () => `--label=flotilla.dev/shard=${env.ns}`;

  it("create source helm, source chart and helmrelease each wait for Ready and print flux's lines", async () => {
    const helm = await cli("create", "source", "helm", "more-charts", `--url=${env.charts.url}`, shard());
    expect(helm.code, helm.stderr).toBe(0);
    expect(helm.stderr).toMatch(
      /^✚ generating HelmRepository source\n► applying HelmRepository source\n✔ HelmRepository source created\n◎ waiting for HelmRepository source reconciliation\n✔ HelmRepository source reconciliation completed\n✔ fetched revision: sha256:[0-9a-f]{64}\n$/,
    );
    const chart = await cli(
      "create",
      "source",
      "chart",
      "bench",
      "--source=HelmRepository/more-charts",
      "--chart=bench",
      "--chart-version=1.0.0",
      shard(),
    );
    expect(chart.code, chart.stderr).toBe(0);
    expect(chart.stderr).toContain("✔ fetched revision: 1.0.0\n");
    // --chart-ref to the HelmChart just created: a chart template's HelmChart carries only
    // spec.chart.metadata.labels (helm-controller's rule), which no create flag sets, so this sharded
    // controller would never see it.
    const hr = await cli("create", "hr", "api", "--chart-ref=HelmChart/bench", "--interval=10m", shard());
    expect(hr.code, hr.stderr).toBe(0);
    expect(hr.stderr).toContain("✔ HelmRelease api is ready\n✔ applied revision 1.0.0\n");
    const cm = await mgmt.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${env.ns}/configmaps/api`);
    expect(cm.data.message).toBe("hello");
  });

  it("create tenant applies namespaces, service account and role binding; a new cluster role re-creates the binding", async () => {
    const tenantNs = `${env.ns}-team`;
    const first = await cli("create", "tenant", "team", `--with-namespace=${tenantNs}`, "--cluster-role=view");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`✔ rolebinding team-reconciler created\n`);
    const second = await cli("create", "tenant", "team", `--with-namespace=${tenantNs}`, "--cluster-role=edit");
    expect(second.code, second.stderr).toBe(0);
    const rb = await mgmt.client.get<{ roleRef: { name: string }; subjects: { name: string }[] }>(
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${tenantNs}/rolebindings/team-reconciler`,
    );
    expect(rb.roleRef.name).toBe("edit");
    expect(rb.subjects.map((s) => s.name)).toEqual([`gotk:${tenantNs}:reconciler`, "team"]);
    await mgmt.client.delete(`/api/v1/namespaces/${tenantNs}`);
  });

  it("create secret git|helm|tls apply the Secret and never print its values", async () => {
    const password = "create-secret-password-91c2";
    const git = await cli(
      "create",
      "secret",
      "git",
      "git-auth",
      "--url=https://git.example/x.git",
      "--username=u",
      `--password=${password}`,
    );
    expect(git.code, git.stderr).toBe(0);
    expect(git.stderr).toBe(`► git secret 'git-auth' created in '${env.ns}' namespace\n`);
    const helm = await cli("create", "secret", "helm", "helm-auth", "--username=u", `--password=${password}`);
    expect(helm.code, helm.stderr).toBe(0);
    const tls = "test/fixtures/flux-cli/create/create_secret/tls";
    const certs = await cli(
      "create",
      "secret",
      "tls",
      "certs",
      `--tls-crt-file=${tls}/test-cert.pem`,
      `--tls-key-file=${tls}/test-key.pem`,
      `--ca-crt-file=${tls}/test-ca.pem`,
    );
    expect(certs.code, certs.stderr).toBe(0);
    for (const r of [git, helm, certs]) expect(r.stdout + r.stderr).not.toContain(password);
    const stored = await mgmt.client.get<{ type: string; data: Record<string, string> }>(
      `/api/v1/namespaces/${env.ns}/secrets/helm-auth`,
    );
    expect(stored.type).toBe("kubernetes.io/basic-auth");
    expect(Buffer.from(stored.data.password!, "base64").toString()).toBe(password);
    const cert = await mgmt.client.get<{ type: string; data: Record<string, string> }>(
      `/api/v1/namespaces/${env.ns}/secrets/certs`,
    );
    expect(cert.type).toBe("kubernetes.io/tls");
    expect(Object.keys(cert.data).sort()).toEqual(["ca.crt", "tls.crt", "tls.key"]);
  });
});
