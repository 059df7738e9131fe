// The flux2-multi-tenancy tenant repository (fluxcd/flux2-multi-tenancy docs/dev-team-repository at
// cd0b58b: base/ with a v1beta1 HelmRepository and a v2beta1 HelmRelease run as the dev-team service
// account, staging/ and production/ overlays patching its chart version range and values with
// patchesStrategicMerge) as written — the chart URL changed — applied by one Kustomization per
// environment into its own namespace, each converging to its own chart version and values with the
// real helm. (The repository's main branch now pairs a v2 release with v2beta1 patches, which real
// kustomize refuses too: "no matches for Id HelmRelease.v2beta1…".)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { startGitHttpServer, type GitHttpServer } from "../support/git-http-server.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const mgmt = planeCluster("management");
let env: HelmReleaseEnv;
let git: GitHttpServer;

/** The dev-team repository's files; `apps` is the tenant namespace there. */
function devTeamRepository(chartUrl: string): Record<string, string> {
  const patch = (range: string, replicas: number) => `apiVersion: helm.toolkit.fluxcd.io/v2beta1
kind: HelmRelease
metadata:
  name: podinfo
  namespace: apps
spec:
  chart:
    spec:
      version: "${range}"
  values:
    replicaCount: ${replicas}
`;
  const overlay = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../base
patchesStrategicMerge:
  - podinfo-values.yaml
`;
  return {
    "base/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - podinfo-repository.yaml
  - podinfo-release.yaml
`,
    "base/podinfo-repository.yaml": `apiVersion: source.toolkit.fluxcd.io/v1beta1
kind: HelmRepository
metadata:
  name: podinfo
  namespace: apps
spec:
  interval: 5m
  url: ${chartUrl}
`,
    "base/podinfo-release.yaml": `apiVersion: helm.toolkit.fluxcd.io/v2beta1
kind: HelmRelease
metadata:
  name: podinfo
  namespace: apps
spec:
  serviceAccountName: dev-team
  releaseName: podinfo
  chart:
    spec:
      chart: podinfo
      sourceRef:
        kind: HelmRepository
        name: podinfo
  interval: 5m
`,
    "staging/kustomization.yaml": overlay,
    "staging/podinfo-values.yaml": patch(">=1.0.0-alpha", 1),
    "production/kustomization.yaml": overlay,
    "production/podinfo-values.yaml": patch(">=1.0.0", 2),
  };
}

/** A podinfo-like chart: a Deployment with replicaCount replicas, its version in a label. */
const podinfoChart = (version: string) =>
  env.charts.addChart("podinfo", version, {
    files: {
      "values.yaml": "replicaCount: 1\n",
      "templates/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
  labels:
    chart-version: {{ .Chart.Version | quote }}
spec:
  replicas: {{ .Values.replicaCount }}
  selector:
    matchLabels: {app: podinfo}
  template:
    metadata:
      labels: {app: podinfo}
    spec:
      containers:
        - name: podinfo
          image: ghcr.io/stefanprodan/podinfo:6.7.1
`,
    },
  });

beforeAll(async () => {
  env = await startHelmReleaseEnv("hr-dev-team");
  git = await startGitHttpServer();
  await podinfoChart("1.0.0");
  await podinfoChart("1.1.0-rc.1");
}, 120_000);
afterAll(async () => {
  await env?.stop();
  await git?.close();
});

describe("the flux2-multi-tenancy tenant repository", () => {
  it("converges per environment: staging on the pre-release with 1 replica, production on the stable release with 2", async () => {
    const repo = await git.createRepo("dev-team");
    await repo.commit(devTeamRepository(env.charts.url), "dev-team: podinfo");
    const shard = { "flotilla.dev/shard": env.ns };
    await mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${env.ns}/gitrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "dev-team", namespace: env.ns, labels: shard },
      spec: { interval: "10m", url: repo.url, ref: { branch: "main" } },
    });
    const envs = {
      staging: await testNamespace(mgmt.client, "dev-staging"),
      production: await testNamespace(mgmt.client, "dev-production"),
    };
    for (const [name, ns] of Object.entries(envs)) {
      // What `flotilla create tenant dev-team --with-namespace=<ns>` makes: the tenant's service account, admin there.
      await mgmt.client.create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: "dev-team" } });
      await mgmt.client.create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
        metadata: { name: "dev-team-reconciler" },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "admin" },
        subjects: [{ kind: "ServiceAccount", name: "dev-team", namespace: ns }],
      });
      await mgmt.client.create(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${env.ns}/kustomizations`, {
        apiVersion: "kustomize.toolkit.fluxcd.io/v1",
        kind: "Kustomization",
        metadata: { name: `dev-team-${name}`, namespace: env.ns, labels: shard },
        spec: {
          interval: "10m",
          path: `./${name}`,
          prune: true,
          targetNamespace: ns,
          sourceRef: { kind: "GitRepository", name: "dev-team" },
          // Only so this test's sharded controller sees what the Kustomization creates.
          commonMetadata: { labels: shard },
          patches: [
            {
              target: { kind: "HelmRelease" },
              patch: JSON.stringify([{ op: "add", path: "/spec/chart/metadata", value: { labels: shard } }]),
            },
          ],
        },
      });
    }
    for (const [name, ns] of Object.entries(envs)) {
      const hr = await eventually(
        `the ${name} HelmRelease Ready`,
        async () => {
          const o = await mgmt.client
            .get<import("../../src/api/helm/helmrelease.js").HelmRelease>(
              `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases/podinfo`,
            )
            .catch(() => undefined);
          return o && condOf(o, "Ready")?.status === "True" ? o : undefined;
        },
        120_000,
        1000,
      ).catch(async (err: Error) => {
        const ks = await mgmt.client.get<{ status?: { conditions?: unknown[] } }>(
          `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${env.ns}/kustomizations/dev-team-${name}`,
        );
        const hr = await mgmt.client
          .get<{ status?: { conditions?: unknown[] } }>(
            `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases/podinfo`,
          )
          .catch((e: Error) => ({ status: { conditions: [e.message] } }));
        throw new Error(
          `${err.message}; Kustomization: ${JSON.stringify(ks.status?.conditions)}; HelmRelease: ${JSON.stringify(hr.status?.conditions)}`,
        );
      });
      const want = name === "staging" ? { version: "1.1.0-rc.1", replicas: 1 } : { version: "1.0.0", replicas: 2 };
      expect(condOf(hr, "Ready")!.message).toBe(
        `Helm install succeeded for release ${ns}/podinfo.v1 with chart podinfo@${want.version}`,
      );
      const d = await mgmt.client.get<{ spec: { replicas: number }; metadata: { labels: Record<string, string> } }>(
        `/apis/apps/v1/namespaces/${ns}/deployments/podinfo`,
      );
      expect([d.metadata.labels["chart-version"], d.spec.replicas]).toEqual([want.version, want.replicas]);
    }
  }, 360_000);
});
