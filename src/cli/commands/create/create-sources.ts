// `create source git|helm|chart` (flux cmd/flux/create_source_*.go).
import { Command, Option } from "commander";
import type { KubeObject } from "../../../api/meta/object.js";
import { clusterOf } from "../../cluster-flags.js";
import { goDurationFlag } from "../../export/go-duration.js";
import { readFileSync } from "node:fs";
import { gitSecret } from "./build-secrets.js";
import { sshKeyOptions } from "./create-tenant-secrets.js";
import { confirm } from "../../prompt.js";
import { gitRepository, checkGitSource, helmChart, helmRepository, providerFlag } from "./build-sources.js";
import { upsert } from "./create-apply.js";
import { ociCommand } from "./create-source-oci.js";
import { type CreateFlags, exportOrApply, intervalOf, metaOf, withCreateFlags } from "./create-common.js";
import { collectSlice, sourceFlag } from "./flux-refs.js";
import { UsageError } from "../../errors.js";
import type { Handled } from "../operate/reconcile-wait.js";

const CHART_SOURCES = ["HelmRepository", "GitRepository", "Bucket"];

const fetched = (kind: string) => (live: Handled) => [
  `${kind} source reconciliation completed`,
  `fetched revision: ${(live.status as { artifact?: { revision?: string } } | undefined)?.artifact?.revision ?? ""}`,
];

const fetchTimeout = (f: { fetchTimeout?: string }) =>
  f.fetchTimeout ? goDurationFlag("--fetch-timeout", f.fetchTimeout) : undefined;

interface GitFlags extends CreateFlags {
  url?: string;
  branch?: string;
  tag?: string;
  tagSemver?: string;
  refName?: string;
  commit?: string;
  username?: string;
  password?: string;
  secretRef?: string;
  proxySecretRef?: string;
  provider?: string;
  caFile?: string;
  privateKeyFile?: string;
  recurseSubmodules?: boolean;
  silent?: boolean;
  ignorePaths: string[];
  sparseCheckoutPaths: string[];
  fetchTimeout?: string;
  sshKeyAlgorithm?: "rsa" | "ecdsa" | "ed25519";
  sshRsaBits?: string;
  sshEcdsaCurve?: "p256" | "p384" | "p521";
}

function gitCommand(): Command {
  const cmd = new Command("git")
    .description("Create or update a GitRepository source")
    .argument("[name]")
    .option("--url <url>", "git address, e.g. ssh://git@host/org/repository")
    .option("--branch <branch>", "git branch")
    .option("--tag <tag>", "git tag")
    .option("--tag-semver <range>", "git tag semver range")
    .option("--ref-name <ref>", "git reference name")
    .option("--commit <sha>", "git commit")
    .option("-u, --username <username>", "basic authentication username")
    .option("-p, --password <password>", "basic authentication password")
    .option("--secret-ref <name>", "the name of an existing secret containing SSH or basic credentials")
    .option("--proxy-secret-ref <name>", "the name of an existing secret containing the proxy address and credentials")
    .addOption(
      new Option("--provider <provider>", "the Git provider name: generic|github|aws|azure").argParser(providerFlag),
    )
    .option("--ca-file <path>", "path to TLS CA file used for validating self-signed certificates")
    .option(
      "--private-key-file <path>",
      "path to a passwordless private key file used for authenticating to the Git SSH server",
    )
    .option(
      "--recurse-submodules",
      "when enabled, configures the GitRepository source to initialize and include Git submodules",
    )
    .option("-s, --silent", "assumes the deploy key is already setup, skips confirmation")
    .addOption(
      new Option("--ignore-paths <paths>", "set paths to ignore in git resource (comma-separated)")
        .argParser(collectSlice)
        .default([]),
    )
    .addOption(
      new Option("--sparse-checkout-paths <paths>", "set paths to sparse checkout in git resource (comma-separated)")
        .argParser(collectSlice)
        .default([]),
    )
    .option("--fetch-timeout <duration>", "set a timeout for fetch operations performed by source-controller");
  for (const o of sshKeyOptions()) cmd.addOption(o);
  withCreateFlags(
    cmd,
    "  flotilla create source git podinfo --url=https://github.com/stefanprodan/podinfo --tag-semver='>=3.2.0 <3.3.0'\n" +
      "  flotilla create source git flux-system --url=http://127.0.0.1:8080/fleet.git --branch=main --export > sync.yaml",
  );
  return cmd.action(async (name: string | undefined, f: GitFlags) => {
    const m = metaOf(name, f);
    const u = checkGitSource({ ...f, url: f.url ?? "", interval: "", ignorePaths: [], sparseCheckoutPaths: [] });
    const scheme = u.protocol.replace(/:$/, "");
    // As flux: without --secret-ref, an ssh:// source always gets a Secret (the key given, or a new one),
    // an http(s) source one when credentials are given.
    const needsSecret = !f.export && !f.secretRef && (scheme === "ssh" || !!(f.username || f.password || f.caFile));
    const obj = gitRepository(m, {
      ...f,
      url: f.url!,
      interval: intervalOf(f),
      fetchTimeout: fetchTimeout(f),
      secretRef: f.secretRef ?? (needsSecret ? m.name : undefined),
    });
    await exportOrApply(f, obj, "GitRepository source", { ready: fetched("GitRepository") }, async () => {
      if (!needsSecret) return;
      const secret =
        scheme === "ssh"
          ? await gitSecret(m, {
              url: f.url!,
              privateKeyFile: f.privateKeyFile,
              password: f.password,
              sshKeyAlgorithm: f.sshKeyAlgorithm,
              sshRsaBits: f.sshRsaBits ? Number(f.sshRsaBits) : undefined,
              sshEcdsaCurve: f.sshEcdsaCurve,
            })
          : httpSecret(m, f);
      if (scheme === "ssh") {
        const pub = (secret.stringData as Record<string, string>)["identity.pub"]!.trim();
        process.stderr.write(`✚ deploy key: ${pub}\n`);
        if (!f.silent && !(await confirm("Have you added the deploy key to your repository")))
          throw new UsageError("aborting");
      }
      await upsert(clusterOf(f), secret as unknown as KubeObject, "git secret");
    });
  });
}

function httpSecret(m: { name: string; namespace: string }, f: GitFlags) {
  const stringData: Record<string, string> = {};
  if (f.username) stringData.username = f.username;
  if (f.password) stringData.password = f.password;
  if (f.caFile) stringData["ca.crt"] = readFileSync(f.caFile, "utf8");
  return { apiVersion: "v1", kind: "Secret", metadata: { name: m.name, namespace: m.namespace }, stringData };
}

interface HelmFlags extends CreateFlags {
  url?: string;
  secretRef?: string;
  ociProvider?: string;
  passCredentials?: boolean;
  fetchTimeout?: string;
  username?: string;
  password?: string;
}

function helmCommand(): Command {
  const cmd = new Command("helm")
    .description("Create or update a HelmRepository source")
    .argument("[name]")
    .option("--url <url>", "Helm repository address")
    .option(
      "--secret-ref <name>",
      "the name of an existing secret containing TLS, basic auth or docker-config credentials",
    )
    .option("--oci-provider <provider>", "OCI provider for authentication")
    .option("--pass-credentials", "pass credentials to all domains")
    .option("--fetch-timeout <duration>", "set a timeout for fetch operations performed by source-controller");
  withCreateFlags(
    cmd,
    "  flotilla create source helm podinfo --url=https://stefanprodan.github.io/podinfo --interval=10m",
  );
  return cmd.action(async (name: string | undefined, f: HelmFlags) => {
    const obj = helmRepository(metaOf(name, f), {
      ...f,
      url: f.url ?? "",
      interval: intervalOf(f),
      fetchTimeout: fetchTimeout(f),
    });
    const oci = (obj.spec as { type?: string }).type === "oci";
    await exportOrApply(f, obj, "HelmRepository source", {
      ready: oci ? () => ["HelmRepository source reconciliation completed"] : fetched("HelmRepository"),
    });
  });
}

interface ChartFlags extends CreateFlags {
  source?: string;
  chart?: string;
  chartVersion?: string;
  reconcileStrategy: string;
  verifyProvider?: string;
  verifySecretRef?: string;
  verifySubject?: string;
  verifyIssuer?: string;
}

function chartCommand(): Command {
  const cmd = new Command("chart")
    .description("Create or update a HelmChart source")
    .argument("[name]")
    .option(
      "--source <kind/name>",
      "source that contains the chart in the format '<kind>/<name>', where kind must be one of: (HelmRepository, GitRepository, Bucket)",
    )
    .option("--chart <chart>", "Helm chart name or path")
    .option(
      "--chart-version <version>",
      "Helm chart version, accepts a semver range (ignored for charts from GitRepository sources)",
    )
    .option(
      "--reconcile-strategy <strategy>",
      "the reconcile strategy for helm chart (accepted values: Revision and ChartRevision)",
      "ChartVersion",
    )
    .addOption(
      new Option("--verify-provider <provider>", "one of cosign").argParser((v: string) => {
        if (v !== "cosign")
          throw new UsageError(
            `invalid argument "${v}" for "--verify-provider" flag: source OCI verify provider '${v}' is not supported, must be one of: cosign`,
          );
        return v;
      }),
    )
    .option("--verify-secret-ref <name>", "the name of a secret to use for signature verification")
    .option("--verify-subject <regexp>", "regular expression to use for the OIDC subject during signature verification")
    .option("--verify-issuer <regexp>", "regular expression to use for the OIDC issuer during signature verification");
  withCreateFlags(
    cmd,
    "  flotilla create source chart podinfo --source=HelmRepository/podinfo --chart=podinfo --chart-version=6.x",
  );
  return cmd.action(async (name: string | undefined, f: ChartFlags) => {
    const m = metaOf(name, f);
    const source = f.source === undefined ? undefined : sourceFlag("--source", f.source, CHART_SOURCES);
    const obj = helmChart(m, { ...f, source, interval: intervalOf(f) });
    if (f.export) process.stderr.write("✚ generating HelmChart source\n");
    await exportOrApply(f, obj, "HelmChart source", { ready: fetched("HelmChart") });
  });
}

export function sourceCommands(): Command {
  return new Command("source")
    .description("Create or update sources")
    .addCommand(gitCommand())
    .addCommand(helmCommand())
    .addCommand(chartCommand())
    .addCommand(ociCommand());
}
