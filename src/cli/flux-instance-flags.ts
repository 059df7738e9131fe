// The Flux Operator CLI's `--instance-*` flags on `flotilla install` (cmd/cli/install.go: the same names,
// defaults and `-f/--instance-file`), so `flux-operator install` command lines work here. A FluxInstance
// is written when --flux-instance, --instance-file or any --instance-* flag is given; its
// cluster.multitenant locks the controller down as the operator's install does for its own Deployment.
import { readFileSync } from "node:fs";
import { type Command, Option } from "commander";
import type { KubeObject } from "../api/meta/object.js";
import { INSTANCE_NAME } from "../api/operator/fluxinstance.js";
import { DEFAULT_DISTRIBUTION, DEFAULT_INSTANCE_COMPONENTS, fluxInstance } from "../install/flux-instance.js";
import { parseYamlDocuments } from "../kustomize/yaml/parse.js";
import { UsageError } from "./errors.js";
import { goBoolOption } from "./flags.js";

const list = (v: string, prev: string[] | undefined) => [...(prev ?? []), ...v.split(",").filter(Boolean)];
const FLAGS: [string, string, unknown?][] = [
  ["--instance-distribution-version <version>", "Flux distribution version", DEFAULT_DISTRIBUTION.version],
  [
    "--instance-distribution-registry <registry>",
    "container registry of the Flux images (stated: flotilla runs its own)",
    DEFAULT_DISTRIBUTION.registry,
  ],
  [
    "--instance-distribution-artifact <url>",
    "OCI artifact of the distribution manifests (stated: nothing is pulled)",
    DEFAULT_DISTRIBUTION.artifact,
  ],
  ["--instance-cluster-type <type>", "cluster type (kubernetes, openshift, aws, azure, gcp)", "kubernetes"],
  ["--instance-cluster-size <size>", "cluster size profile (small, medium, large)", "medium"],
  ["--instance-cluster-domain <domain>", "cluster domain", "cluster.local"],
  ["--instance-sync-url <url>", "URL of the cluster sync's source (Git repository URL, or oci:// address)"],
  [
    "--instance-sync-ref <ref>",
    "source reference of the sync (Git ref e.g. 'refs/heads/main', or OCI tag e.g. 'latest')",
  ],
  ["--instance-sync-path <path>", "path to the manifests directory in the source", "./"],
  [
    "--instance-sync-creds <username:token>",
    "credentials of the sync source (applies a Secret named after the namespace)",
  ],
];

export interface InstanceFlags {
  fluxInstance?: boolean;
  instanceFile?: string;
  instanceComponents?: string[];
  instanceComponentsExtra?: string[];
  instanceDistributionVersion: string;
  instanceDistributionRegistry: string;
  instanceDistributionArtifact: string;
  instanceClusterType: string;
  instanceClusterSize: string;
  instanceClusterDomain: string;
  instanceClusterMultitenant: boolean;
  instanceClusterNetworkPolicy: boolean;
  instanceSyncUrl?: string;
  instanceSyncRef?: string;
  instanceSyncPath: string;
  instanceSyncCreds?: string;
}

export function addFluxInstanceFlags(cmd: Command): Command {
  cmd.option(
    "--flux-instance",
    "also write a FluxInstance named flux (fluxcd.controlplane.io/v1), as flux-operator install does",
  );
  cmd.option("-f, --instance-file <path>", "a FluxInstance YAML file to write (instead of the --instance-* flags)");
  cmd.option("--instance-components <list>", "Flux components (comma-separated)", list);
  cmd.option("--instance-components-extra <list>", "components on top of the default set (e.g. source-watcher)", list);
  for (const [flags, description, dflt] of FLAGS) cmd.addOption(new Option(flags, description).default(dflt));
  cmd.addOption(goBoolOption("--instance-cluster-multitenant", "enable the multi-tenancy lockdown", false));
  cmd.addOption(goBoolOption("--instance-cluster-network-policy", "restrict network access to the namespace", true));
  return cmd;
}

/** Whether any FluxInstance flag was given on the command line (defaults alone write nothing). */
const asked = (cmd: Command) =>
  cmd.options.some(
    (o) =>
      (o.long === "--flux-instance" || o.long?.startsWith("--instance-")) &&
      cmd.getOptionValueSource(o.attributeName()) === "cli",
  );

/** The FluxInstance (with its sync credentials' Secret) the flags ask for, or nothing. */
export function fluxInstanceOf(
  f: InstanceFlags,
  cmd: Command,
  namespace: string,
): { instance: KubeObject; secret?: KubeObject } | undefined {
  if (!asked(cmd)) return undefined;
  const instance = f.instanceFile ? instanceFromFile(f.instanceFile, namespace) : instanceFromFlags(f, namespace);
  const sync = (instance.spec as { sync?: { url: string; pullSecret?: string } }).sync;
  if (!f.instanceSyncCreds) return { instance };
  if (!sync)
    throw new UsageError(
      "--instance-sync-creds needs a sync: pass --instance-sync-url (or a spec.sync in --instance-file)",
    );
  return {
    instance,
    secret: credentialsSecret(f.instanceSyncCreds, sync.pullSecret ?? namespace, namespace, sync.url),
  };
}

/** cluster.multitenant of the instance, which the controller Deployment must then run with. */
export const instanceMultitenant = (instance: KubeObject | undefined) =>
  !!(instance?.spec as { cluster?: { multitenant?: boolean } } | undefined)?.cluster?.multitenant;

function instanceFromFlags(f: InstanceFlags, namespace: string): KubeObject {
  if (f.instanceSyncUrl && !f.instanceSyncRef)
    throw new UsageError(
      "--instance-sync-ref is required with --instance-sync-url: a Git ref such as refs/heads/main, or an OCI tag such as latest",
    );
  return fluxInstance({
    namespace,
    distribution: {
      version: f.instanceDistributionVersion,
      registry: f.instanceDistributionRegistry,
      artifact: f.instanceDistributionArtifact,
    },
    components: [...(f.instanceComponents ?? DEFAULT_INSTANCE_COMPONENTS), ...(f.instanceComponentsExtra ?? [])],
    cluster: {
      type: f.instanceClusterType,
      size: f.instanceClusterSize,
      domain: f.instanceClusterDomain,
      multitenant: f.instanceClusterMultitenant,
      networkPolicy: f.instanceClusterNetworkPolicy,
    },
    ...(f.instanceSyncUrl
      ? {
          sync: {
            url: f.instanceSyncUrl,
            ref: f.instanceSyncRef!,
            path: f.instanceSyncPath,
            ...(f.instanceSyncCreds ? { pullSecret: namespace } : {}),
          },
        }
      : {}),
  });
}

function instanceFromFile(file: string, namespace: string): KubeObject {
  if (/^(https?|oci):\/\//.test(file))
    throw new UsageError(`--instance-file ${file}: flotilla reads a local file only; download it first`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`--instance-file ${file}: ${(err as Error).message}`);
  }
  const docs = parseYamlDocuments(text, file).map((d) => d.value as KubeObject);
  const fi = docs.find((d) => d?.kind === "FluxInstance");
  if (!fi || docs.length !== 1 || fi.apiVersion !== "fluxcd.controlplane.io/v1")
    throw new UsageError(`--instance-file ${file}: expected one FluxInstance (apiVersion fluxcd.controlplane.io/v1)`);
  if (fi.metadata?.name !== INSTANCE_NAME)
    throw new UsageError(
      `--instance-file ${file}: the only accepted name for a FluxInstance is 'flux' (found '${fi.metadata?.name}')`,
    );
  // As the operator's CLI: the instance lives where the controller runs.
  return { ...fi, metadata: { ...fi.metadata, namespace } };
}

function credentialsSecret(creds: string, name: string, namespace: string, url: string): KubeObject {
  const i = creds.indexOf(":");
  const [username, password] = i > 0 ? [creds.slice(0, i), creds.slice(i + 1)] : ["", ""];
  if (!username || !password) throw new UsageError("--instance-sync-creds: invalid format, expected username:token");
  const metadata = { name, namespace };
  if (!url.startsWith("oci://"))
    return { apiVersion: "v1", kind: "Secret", metadata, stringData: { username, password } } as unknown as KubeObject;
  const server = url.slice("oci://".length).split("/")[0]!;
  const auth = Buffer.from(`${username}:${password}`).toString("base64");
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata,
    type: "kubernetes.io/dockerconfigjson",
    stringData: { ".dockerconfigjson": JSON.stringify({ auths: { [server]: { username, password, auth } } }) },
  } as unknown as KubeObject;
}
