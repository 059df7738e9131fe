// flotilla's image (`npm run image`) runs as the pod `flotilla install --export` describes: the archive is
// unpacked layer by layer, the Deployment's container is run from that filesystem by chroot in a mount namespace
// of its own (test/support/pod-chroot.ts), with a TokenRequest token of the install's ServiceAccount, the
// management plane's CA and the namespace at the in-cluster path, and only the pod's environment. It then
// reconciles a GitRepository, a Kustomization onto a tenant plane through its kubeconfig Secret, and a
// HelmRelease rendered by the image's helm. Laid over the Deployment's own arguments (a later flag wins), as
// test/e2e/install-controller-args.test.ts does: loopback listen addresses (the pod's network namespace is
// this machine's here), the artifact server's advertised address (no cluster DNS or Service proxy here) and a
// shard label selector, so that on a shared fleet it reconciles this file's objects only.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/api/meta/object.js";
import { CONTROLLER_MALLOC_ARENA_MAX, CONTROLLER_NODE_OPTIONS } from "../../src/install/controller-deployment.js";
import { endpointFromKubeconfigFile } from "../../src/kube/kubeconfig.js";
import { parseYamlDocuments } from "../../src/kustomize/yaml/parse.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { freePort } from "../../src/local/ports.js";
import { runCli } from "../support/cli.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { startGitHttpServer } from "../support/git-http-server.js";
import { copyKubeconfig, serveCrds } from "../support/harness.js";
import { type ImageConfig, unpackImage } from "../support/oci-unpack.js";
import { containerPid, type PodContainerRun, type PodSpec, runPodContainer } from "../support/pod-chroot.js";
import { startOciRegistry } from "../support/oci-registry.js";
import { RegistryClient } from "../../src/sources/oci/client.js";

const VERSION = JSON.parse(readFileSync("package.json", "utf8")).version as string;
const ARCHIVE = process.env.FLOTILLA_IMAGE_ARCHIVE ?? `dist/image/flotilla-${VERSION}.oci.tar`;
const mgmt = planeCluster("management");
const tenant = planeCluster("tenant1");
const git = await startGitHttpServer();
let ns: string;
let rootfs: string;
let image: ImageConfig;
let pod: PodSpec;
let run: PodContainerRun;
let pid: number;
const logs: string[] = [];

type Cond = { type: string; status: string; message?: string };
const ready = async (path: string) => {
  const o = await mgmt.client.get<{ status?: { conditions?: Cond[] } }>(path);
  const c = o.status?.conditions?.find((x) => x.type === "Ready");
  if (c?.status !== "True") throw new Error(c ? `Ready ${c.status}: ${c.message}` : "no Ready condition yet");
  return c;
};

beforeAll(async () => {
  if (!existsSync(ARCHIVE)) throw new Error(`no image archive at ${ARCHIVE}: run \`npm run image\` first`);
  const scratch = makeWorkDir("flotilla-image-");
  rootfs = join(scratch, "rootfs");
  image = unpackImage(ARCHIVE, rootfs, scratch);
  const head = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
  if (!process.env.FLOTILLA_IMAGE_ARCHIVE && image.config.Labels?.["org.opencontainers.image.revision"] !== head)
    throw new Error(`${ARCHIVE} was built from another commit than HEAD (${head}): run \`npm run image\` again`);

  ns = await testNamespace(mgmt.client, "imagepod");
  const exported = await runCli(["install", "--export", "--namespace", ns]);
  expect(exported.code, exported.stderr).toBe(0);
  const objects = parseYamlDocuments(exported.stdout, "install.yaml").map((d) => d.value as unknown as KubeObject);
  // What an operator's `kubectl apply` of the export does: the CRDs (served first), the namespace's
  // ServiceAccount, its cluster-admin binding, the Services, the Deployment (no kubelet runs it here) and policies.
  await serveCrds(
    mgmt,
    objects.filter((o) => o.kind === "CustomResourceDefinition"),
  );
  for (const o of objects.filter((o) => o.kind !== "CustomResourceDefinition"))
    await mgmt.apply(o, "flotilla-install", { force: true });
  afterAll(async () => {
    const crb = "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/flotilla-cluster-reconciler";
    const b = await mgmt.client.get<{ subjects?: { namespace?: string }[] }>(crb).catch(() => undefined);
    if (b?.subjects?.[0]?.namespace === ns) await mgmt.client.delete(crb);
  });
  const deployment = objects.find((o) => o.kind === "Deployment") as unknown as {
    spec: { template: { spec: PodSpec } };
  };
  pod = deployment.spec.template.spec;
  expect(pod.containers[0]!.image).toBe(`ghcr.io/flotilla-dev/flotilla:${VERSION}`);
  expect(image.config.Labels?.["org.opencontainers.image.version"]).toBe(VERSION);

  // The kubelet's projected service-account volume: a bound token from TokenRequest, the CA, the namespace.
  const sa = pod.serviceAccountName!;
  const tr = await mgmt.client.create<{ status: { token: string } }>(
    `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`,
    { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: 3600 } },
  );
  const saDir = makeWorkDir("flotilla-image-sa-");
  writeFileSync(join(saDir, "token"), tr.status.token);
  writeFileSync(join(saDir, "ca.crt"), endpointFromKubeconfigFile(plane("management").kubeconfig).caPem!);
  writeFileSync(join(saDir, "namespace"), ns);
  chmodSync(saDir, 0o755);

  const artifactPort = await freePort();
  run = runPodContainer({
    rootfs,
    image,
    pod,
    namespace: ns,
    serviceAccountDir: saDir,
    apiServer: { host: "127.0.0.1", port: plane("management").port },
    extraArgs: [
      // The artifacts Service (flotilla-artifacts.<ns>.svc → the pod's http port) needs cluster DNS and a
      // Service proxy, which this fleet has not: the pod's artifact server is advertised at its loopback port.
      `--storage-addr=127.0.0.1:${artifactPort}`,
      `--storage-adv-addr=http://127.0.0.1:${artifactPort}`,
      "--health-addr=127.0.0.1:0",
      "--receiver-addr=127.0.0.1:0",
      `--watch-label-selector=flotilla.dev/shard=${ns}`,
    ],
  });
  // FLOTILLA_TEST_CONTROLLER_LOG=1 echoes the container's log while the test runs (as for controller-process.ts).
  const keep = (d: Buffer) => {
    logs.push(...d.toString().split("\n").filter(Boolean));
    if (process.env.FLOTILLA_TEST_CONTROLLER_LOG) process.stderr.write(`[image] ${d.toString()}`);
  };
  run.child.stderr!.on("data", keep);
  run.child.stdout!.on("data", keep);
  pid = await eventually("the container's process", async () => {
    const p = containerPid(run);
    return p && readlinkSync(`/proc/${p}/exe`).endsWith("/usr/local/bin/node") ? p : undefined;
  });
}, 300_000);

// If a test failed before the stop test ran: the container goes anyway (its mounts go with its namespace).
afterAll(() => {
  if (run && run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
});

describe("flotilla's image run as the install's pod", () => {
  it("runs from the image's filesystem only, as uid 65534, with the pod's environment and nothing else", () => {
    expect(readlinkSync(`/proc/${pid}/root`)).toBe(rootfs);
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    expect(status).toMatch(/^Uid:\s+65534\s+65534\s+65534\s+65534$/m);
    expect(status).toMatch(/^Groups:\s+1337\s+65534\s*$/m);
    expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
    expect(status).toMatch(/^CapEff:\s+0+$/m);
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
    expect(environ.sort()).toEqual(
      [
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME=/tmp",
        "PWD=/", // exported by the image's /usr/local/bin/flotilla, a sh script, as it would be in a pod
        `RUNTIME_NAMESPACE=${ns}`,
        `NODE_OPTIONS=${CONTROLLER_NODE_OPTIONS}`,
        `MALLOC_ARENA_MAX=${CONTROLLER_MALLOC_ARENA_MAX}`,
        "KUBERNETES_SERVICE_HOST=127.0.0.1",
        `KUBERNETES_SERVICE_PORT=${plane("management").port}`,
      ].sort(),
    );
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    expect(cmdline.slice(0, 3)).toEqual(["/usr/local/bin/node", "/app/bin/flotilla.js", "controller"]);
    expect(cmdline).toEqual(expect.arrayContaining(pod.containers[0]!.args!));
  });

  it("answers the kubelet's probes and reconciles a GitRepository, a Kustomization onto a tenant plane and a HelmRelease with the image's helm", async () => {
    const health = await eventually("the controller's probes address", async () => {
      const lines = logs.map((l) => (l.startsWith("{") ? (JSON.parse(l) as Record<string, unknown>) : {}));
      const running = lines.find((l) => l.msg === "flotilla controller running");
      return running ? `http://${String(running.health)}` : undefined;
    });
    for (const probe of ["/healthz", "/readyz"])
      await eventually(`${probe} answering 200`, async () => (await fetch(health + probe)).status === 200);

    const repo = await git.createRepo(`image-pod-${ns}`);
    const sha = await repo.commit(
      {
        "app/cm.yaml":
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-the-image\ndata:\n  via: kustomization\n",
        "charts/hello/Chart.yaml": "apiVersion: v2\nname: hello\nversion: 0.3.0\n",
        "charts/hello/templates/cm.yaml":
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-hello\ndata:\n  via: {{ .Values.via }}\n",
      },
      "app and chart",
    );
    const labels = { "flotilla.dev/shard": ns };
    const api = (group: string, plural: string) => `/apis/${group}/namespaces/${ns}/${plural}`;
    await mgmt.client.create(api("source.toolkit.fluxcd.io/v1", "gitrepositories"), {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "repo", namespace: ns, labels },
      spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
    });
    const onTenant = await testNamespace(tenant.client, "imagepod");
    const secret = await copyKubeconfig(mgmt, "tenant1", ns);
    await mgmt.client.create(api("kustomize.toolkit.fluxcd.io/v1", "kustomizations"), {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata: { name: "app", namespace: ns, labels },
      spec: {
        interval: "10m",
        path: "./app",
        prune: true,
        targetNamespace: onTenant,
        sourceRef: { kind: "GitRepository", name: "repo" },
        kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
      },
    });
    await mgmt.client.create(api("helm.toolkit.fluxcd.io/v2", "helmreleases"), {
      apiVersion: "helm.toolkit.fluxcd.io/v2",
      kind: "HelmRelease",
      metadata: { name: "hello", namespace: ns, labels },
      spec: {
        interval: "10m",
        chart: {
          metadata: { labels },
          spec: { chart: "./charts/hello", sourceRef: { kind: "GitRepository", name: "repo" } },
        },
        values: { via: "helm-in-the-image" },
      },
    });

    const source = await eventually("the GitRepository Ready", () =>
      ready(`${api("source.toolkit.fluxcd.io/v1", "gitrepositories")}/repo`),
    );
    expect(source.message).toContain(sha);
    await eventually(
      "the Kustomization Ready",
      () => ready(`${api("kustomize.toolkit.fluxcd.io/v1", "kustomizations")}/app`),
      120_000,
    );
    const applied = await tenant.client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${onTenant}/configmaps/from-the-image`,
    );
    expect(applied.data.via).toBe("kustomization");
    const release = await eventually(
      "the HelmRelease Ready",
      () => ready(`${api("helm.toolkit.fluxcd.io/v2", "helmreleases")}/hello`),
      180_000,
    );
    expect(release.message).toBe(`Helm install succeeded for release ${ns}/hello.v1 with chart hello@0.3.0`);
    const cm = await mgmt.client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${ns}/configmaps/hello-hello`,
    );
    expect(cm.data.via).toBe("helm-in-the-image");
    // All of it from inside the image: the process's root is the unpacked filesystem, so the helm (and git) it
    // ran are the image's; the host's pinned helm is at a path that does not exist in there.
    expect(readlinkSync(`/proc/${pid}/root`)).toBe(rootfs);
    expect(existsSync(join(rootfs, "usr/local/bin/helm"))).toBe(true);
    expect(existsSync(join(rootfs, "usr/local/bin/helm-engine"))).toBe(true);
  });

  it("stops on SIGTERM as a kubelet stops it, within the pod's grace period", async () => {
    const exited = new Promise<number | null>((r) => run.child.once("exit", (code) => r(code)));
    process.kill(pid, "SIGTERM");
    const graceMs = (pod.terminationGracePeriodSeconds ?? 30) * 1000;
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("still running"), graceMs))]);
    expect(code).toBe(0);
    expect(existsSync(`/proc/${pid}`)).toBe(false);
  }, 120_000);

  it("is pushed as `npm run image -- --push` pushes it: the registry serves the build's digest where install --registry looks", async () => {
    const reg = await startOciRegistry();
    try {
      const index = JSON.parse(execFileSync("tar", ["-xOf", ARCHIVE, "index.json"], { encoding: "utf8" })) as {
        manifests: { digest: string }[];
      };
      const built = index.manifests[0]!.digest;
      const out = execFileSync("node", ["scripts/image/push.mjs", ARCHIVE, `${reg.host}/mirror`], {
        encoding: "utf8",
      });
      expect(out.trim().split("\n").at(-1)).toBe(`${reg.host}/mirror/flotilla:${VERSION}@${built}`);
      const client = new RegistryClient(reg.host, { insecure: true });
      try {
        const served = await client.getManifest("mirror/flotilla", VERSION);
        expect(served.digest).toBe(built);
      } finally {
        await client.close();
      }
      // The reference the install writes for that registry is the one pushed.
      const exported = await runCli(["install", "--export", "--registry", `${reg.host}/mirror`]);
      expect(exported.stdout).toContain(`image: ${reg.host}/mirror/flotilla:${VERSION}`);
    } finally {
      await reg.stop();
    }
  });
});
