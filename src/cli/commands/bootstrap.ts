// `flotilla bootstrap git`: make a cluster reconcile itself from a Git repository, as flux bootstrap
// does — commit the components and the flux-system sync manifests under --path (only when they
// changed: a re-run commits nothing), install the components, write the credentials Secret, apply the
// sync objects and wait until the cluster has reconciled itself from Git.
import { Command, Option } from "commander";
import type { KubeObject } from "../../api/meta/object.js";
import { formatChangeSet, ResourceManager } from "../../ssa/index.js";
import { addImageFlags, type ImageFlags, installOptionsOf } from "../install-flags.js";
import { addClusterFlags, clusterOf, type ClusterFlags, timeoutMsOf } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { goDurationFlag } from "../export/go-duration.js";
import { goBoolOption } from "../flags.js";
import { step, success } from "../output.js";
import { withoutPassphrase } from "../../binaries/openssh/index.js";
import { confirm } from "../prompt.js";
import { GitWorkspace } from "./bootstrap/git-workspace.js";
import { gitSecret } from "./create/build-secrets.js";
import { sshKeyOptions } from "./create/create-tenant-secrets.js";
import { bootstrapFiles, componentObjects, syncObjects } from "./bootstrap/sync-manifests.js";
import { waitReady } from "./create/create-apply.js";
import { collectSlice, parseLabels } from "./create/flux-refs.js";

interface BootstrapFlags extends ClusterFlags, ImageFlags {
  url?: string;
  branch: string;
  path?: string;
  interval: string;
  username?: string;
  password?: string;
  secretName: string;
  allowInsecureHttp: boolean;
  authorName: string;
  authorEmail: string;
  commitMessageAppendix?: string;
  multiTenant?: boolean;
  fluxInstance?: boolean;
  label: string[];
  silent?: boolean;
  privateKeyFile?: string;
  sshKeyAlgorithm?: "rsa" | "ecdsa" | "ed25519";
  sshRsaBits?: string;
  sshEcdsaCurve?: "p256" | "p384" | "p521";
}

function gitCommand(): Command {
  const cmd = new Command("git")
    .description("Deploy flotilla on a cluster the GitOps way, from any Git repository")
    .option("--url <url>", "Git repository URL (ssh, https, or http with --allow-insecure-http)")
    .option("--branch <branch>", "Git branch", "main")
    .option(
      "--path <path>",
      "path relative to the repository root, the cluster's sync manifests go under <path>/flux-system",
    )
    .option("--interval <duration>", "sync interval", "1m0s")
    .option("--private-key-file <path>", "path to a private key file used for authenticating to the Git SSH server")
    .option("-u, --username <username>", "basic authentication username")
    .option("-p, --password <password>", "basic authentication password, or the private key's passphrase")
    .option("--secret-name <name>", "name of the secret the sync credentials are stored in", "flux-system")
    .addOption(goBoolOption("--allow-insecure-http", "allows http Git URLs", false))
    .option("--author-name <name>", "author name for Git commits", "Flux")
    .option("--author-email <email>", "author email for Git commits", "")
    .option("--commit-message-appendix <text>", "string to add to the commit messages")
    .option(
      "--multi-tenant",
      "lock the controller down for tenants (--no-cross-namespace-refs, --default-service-account=default)",
    )
    .option(
      "--flux-instance",
      "commit a FluxInstance (fluxcd.controlplane.io/v1) whose spec.sync is this repository instead of gotk-sync.yaml, as Flux Operator repositories hold it",
    )
    .addOption(
      new Option("--label <key=value>", "labels for the sync objects, e.g. a shard key for --watch-label-selector")
        .argParser(collectSlice)
        .default([]),
    )
    .option("-s, --silent", "assumes the answer to every question is yes")
    .addHelpText(
      "after",
      "\nExamples:\n  flotilla bootstrap git --url=https://git.example.com/fleet.git --username=<user> --password=<token> --path=clusters/staging\n" +
        "  flotilla bootstrap git --url=http://127.0.0.1:8080/fleet.git --allow-insecure-http --branch=main --path=clusters/management",
    );
  for (const o of sshKeyOptions()) cmd.addOption(o);
  addImageFlags(cmd);
  addClusterFlags(cmd);
  return cmd.action(async (f: BootstrapFlags) => {
    if (!f.url) throw new UsageError("--url is required: the Git repository the cluster reconciles itself from");
    if (!f.path) throw new UsageError("--path is required: e.g. --path=clusters/staging");
    const scheme = new URL(f.url).protocol.replace(/:$/, "");
    if (scheme === "http" && !f.allowInsecureHttp)
      throw new UsageError(`scheme http is insecure, pass --allow-insecure-http=true to allow it`);
    if (!["http", "https", "ssh"].includes(scheme))
      throw new UsageError(`Git URL scheme '${scheme}' not supported, can be: ssh, http and https`);
    const ssh = scheme === "ssh";
    const withCredentials = ssh || !!(f.username || f.password);
    const opts = {
      namespace: f.namespace,
      url: f.url,
      branch: f.branch,
      path: f.path,
      interval: goDurationFlag("--interval", f.interval),
      secretName: withCredentials ? f.secretName : undefined,
      labels: parseLabels(f.label),
      multiTenant: !!f.multiTenant,
      fluxInstance: !!f.fluxInstance,
      install: installOptionsOf(f, f),
    };
    const cluster = clusterOf(f);

    // Over SSH, the Secret the cluster will use is also what this command pushes with (flux: the same).
    const sshSecret = ssh
      ? ((await gitSecret(
          { name: f.secretName, namespace: f.namespace },
          {
            url: f.url,
            privateKeyFile: f.privateKeyFile,
            password: f.password,
            sshKeyAlgorithm: f.sshKeyAlgorithm,
            sshRsaBits: f.sshRsaBits ? Number(f.sshRsaBits) : undefined,
            sshEcdsaCurve: f.sshEcdsaCurve,
          },
        )) as { stringData: Record<string, string> })
      : undefined;
    if (sshSecret && !f.privateKeyFile) {
      process.stderr.write(`✚ deploy key: ${sshSecret.stringData["identity.pub"]!.trim()}\n`);
      if (!f.silent && !(await confirm("Please give the key access to your repository")))
        throw new UsageError("aborting");
    }
    step(`cloning branch "${f.branch}" from Git repository "${f.url}"`);
    const repo = await GitWorkspace.clone(f.url, f.branch, {
      ...(sshSecret
        ? {
            ssh: {
              privateKey: await withoutPassphrase(sshSecret.stringData.identity!, f.password ?? ""),
              knownHosts: sshSecret.stringData.known_hosts!,
            },
          }
        : { username: f.username, password: f.password }),
    });
    try {
      step("generating component manifests");
      const files = bootstrapFiles(opts);
      repo.write(files);
      const message = `Add Flux sync manifests${f.commitMessageAppendix ? `\n\n${f.commitMessageAppendix}` : ""}`;
      const author = { name: f.authorName, email: f.authorEmail };
      const sha = await repo.commitAndPush(Object.keys(files), message, author, f.branch);
      if (sha) success(`committed component manifests to "${f.branch}" ("${sha}")`);
      else success("component manifests are up to date");
    } finally {
      repo.dispose();
    }

    step(`installing components in "${f.namespace}" namespace`);
    const manager = new ResourceManager(cluster, { fieldManager: "flux" });
    const changes = await manager.apply(componentObjects(opts));
    process.stderr.write(`${formatChangeSet(changes)}\n`);
    success("installed components");
    if (withCredentials) {
      step(`creating secret "${f.secretName}" with the Git credentials`);
      const secret = sshSecret ?? {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: f.secretName, namespace: f.namespace },
        stringData: { username: f.username ?? "", password: f.password ?? "" },
      };
      await cluster.apply(secret as unknown as KubeObject, "flux", { force: true });
    }
    step("applying sync manifests");
    const timeoutMs = timeoutMsOf(f);
    if (opts.fluxInstance) {
      const [instance] = syncObjects(opts);
      await cluster.apply(instance!, "flux", { force: true });
      await waitReady(cluster, instance!, "FluxInstance", timeoutMs);
      success("FluxInstance reconciled successfully");
      // Its root Kustomization, named after the namespace as the operator names it, applied the repository.
      const root = {
        apiVersion: "kustomize.toolkit.fluxcd.io/v1",
        kind: "Kustomization",
        metadata: { name: f.namespace, namespace: f.namespace },
      };
      const live = await waitReady(cluster, root as unknown as KubeObject, "Kustomization", timeoutMs);
      success(
        `Kustomization reconciled successfully (applied revision ${String((live.status as { lastAppliedRevision?: string })?.lastAppliedRevision ?? "")})`,
      );
      success("bootstrap finished");
      return;
    }
    const [source, sync] = syncObjects(opts);
    for (const o of [source!, sync!]) await cluster.apply(o, "flux", { force: true });
    await waitReady(cluster, source!, "GitRepository", timeoutMs);
    success(`GitRepository reconciled successfully`);
    const live = await waitReady(cluster, sync!, "Kustomization", timeoutMs);
    success(
      `Kustomization reconciled successfully (applied revision ${String((live.status as { lastAppliedRevision?: string })?.lastAppliedRevision ?? "")})`,
    );
    success("bootstrap finished");
  });
}

export function bootstrapCommand(): Command {
  return new Command("bootstrap").description("Deploy flotilla on a cluster the GitOps way").addCommand(gitCommand());
}
