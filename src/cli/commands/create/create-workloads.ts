// `create kustomization|ks` and `create helmrelease|hr` (flux cmd/flux/create_kustomization.go,
// create_helmrelease.go).
import { Command, Option } from "commander";
import { UsageError } from "../../errors.js";
import { goDurationFlag } from "../../export/go-duration.js";
import { goBoolOption } from "../../flags.js";
import { type HelmReleaseArgs, helmRelease, kustomization, type KustomizationArgs } from "./build-workloads.js";
import { type CreateFlags, exportOrApply, intervalOf, metaOf, withCreateFlags } from "./create-common.js";
import { collectSlice, safeRelativePath, sourceFlag } from "./flux-refs.js";
import type { Handled } from "../operate/reconcile-wait.js";

const KS_SOURCES = ["OCIRepository", "GitRepository", "Bucket"];
const HR_SOURCES = ["HelmRepository", "GitRepository", "Bucket"];
const CRDS = ["Skip", "Create", "CreateReplace"];

const slice = (flag: string, description: string) => new Option(flag, description).argParser(collectSlice).default([]);

// The builder's arguments as flags: --source and --path still text, --health-check repeated in the singular.
interface KsFlags extends CreateFlags, Omit<KustomizationArgs, "source" | "path" | "healthChecks"> {
  source?: string;
  path?: string;
  healthCheck: string[];
  validation?: string;
}

function kustomizationCommand(): Command {
  const cmd = new Command("kustomization")
    .aliases(["ks"])
    .description("Create or update a Kustomization resource")
    .argument("[name]")
    .option(
      "--source <kind/name.namespace>",
      "source that contains the Kubernetes manifests in the format '[<kind>/]<name>.<namespace>', where kind must be one of: (OCIRepository, GitRepository, Bucket), if kind is not specified it defaults to GitRepository",
    )
    .option("--path <path>", "path to the directory containing a kustomization.yaml file", "./")
    .addOption(goBoolOption("--prune", "enable garbage collection", false))
    .addOption(goBoolOption("--wait", "enable health checking of all the applied resources", false))
    .addOption(
      slice(
        "--health-check <kind/name.namespace>",
        "workload to be included in the health assessment, in the format '<kind>/<name>.<namespace>'",
      ),
    )
    .option("--health-check-timeout <duration>", "timeout of health checking operations", "2m")
    .addOption(
      slice(
        "--depends-on <name>",
        "Kustomization that must be ready before this Kustomization can be applied, supported formats '<name>' and '<namespace>/<name>'",
      ),
    )
    .option(
      "--service-account <name>",
      "the name of the service account to impersonate when reconciling this Kustomization",
    )
    .addOption(new Option("--decryption-provider <provider>", "decryption provider").choices(["sops"]))
    .option(
      "--decryption-secret <name>",
      "set the Kubernetes secret name that contains the OpenPGP private keys used for sops decryption",
    )
    .option(
      "--target-namespace <namespace>",
      "overrides the namespace of all Kustomization objects reconciled by this Kustomization",
    )
    .option(
      "--kubeconfig-secret-ref <name>",
      "the name of the Kubernetes Secret that contains a key with the kubeconfig file for connecting to a remote cluster",
    )
    .option("--retry-interval <duration>", "the interval at which to retry a previously failed reconciliation")
    .addOption(
      new Option(
        "--validation <mode>",
        "deprecated: all resources are validated using server-side apply dry-run",
      ).hideHelp(),
    );
  withCreateFlags(
    cmd,
    "  flotilla create kustomization kyverno-policies --source=GitRepository/flux-system --path=./policies --prune=true --interval=60m\n" +
      "  flotilla create kustomization tenants --namespace=flux-system --source=GitRepository/flux-system --path=./tenants/staging --prune --interval=3m --export",
  );
  return cmd.action(async (name: string | undefined, f: KsFlags) => {
    const m = metaOf(name, f);
    if (f.validation !== undefined)
      process.stderr.write(
        "Flag --validation has been deprecated, this arg is no longer used, all resources are validated using server-side apply dry-run\n",
      );
    const obj = kustomization(m, {
      ...f,
      source: f.source === undefined ? undefined : sourceFlag("--source", f.source, KS_SOURCES, "GitRepository"),
      path: safeRelativePath(f.path ?? ""),
      interval: intervalOf(f),
      healthChecks: f.healthCheck,
      healthCheckTimeout: goDurationFlag("--health-check-timeout", f.healthCheckTimeout),
      retryInterval: f.retryInterval ? goDurationFlag("--retry-interval", f.retryInterval) : undefined,
    });
    await exportOrApply(f, obj, "Kustomization", {
      ready: (live: Handled) => [
        `Kustomization ${m.name} is ready`,
        `applied revision ${(live.status as { lastAppliedRevision?: string } | undefined)?.lastAppliedRevision ?? ""}`,
      ],
    });
  });
}

// The builder's arguments as flags: --source is still the text `Kind/[ns/]name`.
interface HrFlags extends CreateFlags, Omit<HelmReleaseArgs, "source"> {
  source?: string;
}

function helmReleaseCommand(): Command {
  const cmd = new Command("helmrelease")
    .aliases(["hr"])
    .description("Create or update a HelmRelease resource")
    .argument("[name]")
    .option(
      "--release-name <name>",
      "name used for the Helm release, defaults to a composition of '[<target-namespace>-]<HelmRelease-name>'",
    )
    .option(
      "--source <kind/name.namespace>",
      "source that contains the chart in the format '<kind>/<name>.<namespace>', where kind must be one of: (HelmRepository, GitRepository, Bucket)",
    )
    .option("--chart <chart>", "Helm chart name or path")
    .option(
      "--chart-version <version>",
      "Helm chart version, accepts a semver range (ignored for charts from GitRepository sources)",
    )
    .option(
      "--chart-ref <kind/name.namespace>",
      "the name of the HelmChart resource to use as source for the HelmRelease, in the format '<kind>/<name>.<namespace>', where kind must be one of: (OCIRepository,HelmChart)",
    )
    .addOption(
      slice(
        "--depends-on <name>",
        "HelmReleases that must be ready before this release can be installed, supported formats '<name>' and '<namespace>/<name>'",
      ),
    )
    .option(
      "--target-namespace <namespace>",
      "namespace to install this release, defaults to the HelmRelease namespace",
    )
    .option("--storage-namespace <namespace>", "namespace to store the Helm release, defaults to the target namespace")
    .addOption(goBoolOption("--create-target-namespace", "create the target namespace if it does not exist", false))
    .option(
      "--service-account <name>",
      "the name of the service account to impersonate when reconciling this HelmRelease",
    )
    .option(
      "--reconcile-strategy <strategy>",
      "the reconcile strategy for helm chart created by the helm release(accepted values: Revision and ChartRevision)",
      "ChartVersion",
    )
    .option("--chart-interval <duration>", "the interval of which to check for new chart versions")
    .addOption(slice("--values <files>", "local path to values.yaml files, also accepts comma-separated values"))
    .addOption(
      slice(
        "--values-from <kind/name>",
        "a Kubernetes object reference that contains the values.yaml data key in the format '<kind>/<name>', where kind must be one of: (Secret,ConfigMap)",
      ),
    )
    .addOption(
      new Option(
        "--crds <policy>",
        "upgrade CRDs policy, available options are: (Skip, Create, CreateReplace)",
      ).argParser((v: string) => {
        if (!CRDS.includes(v))
          throw new UsageError(
            `invalid argument "${v}" for "--crds" flag: unsupported upgrade CRDs policy '${v}', must be one of: ${CRDS.join(", ")}`,
          );
        return v;
      }),
    )
    .option(
      "--kubeconfig-secret-ref <name>",
      "the name of the Kubernetes Secret that contains a key with the kubeconfig file for connecting to a remote cluster",
    );
  withCreateFlags(
    cmd,
    '  flotilla create hr podinfo --interval=10m --source=HelmRepository/podinfo --chart=podinfo --chart-version=">4.0.0"\n' +
      "  flotilla create hr podinfo --chart-ref=HelmChart/podinfo.flux-system --values=./values.yaml --export",
  );
  return cmd.action(async (name: string | undefined, f: HrFlags) => {
    const m = metaOf(name, f);
    const obj = helmRelease(m, {
      ...f,
      source: f.source === undefined ? undefined : sourceFlag("--source", f.source, HR_SOURCES),
      interval: intervalOf(f),
      chartInterval: f.chartInterval ? goDurationFlag("--chart-interval", f.chartInterval) : undefined,
    });
    await exportOrApply(f, obj, "HelmRelease", {
      ready: (live: Handled) => {
        const history = (live.status as { history?: { chartVersion?: string }[] } | undefined)?.history;
        return [`HelmRelease ${m.name} is ready`, `applied revision ${history?.[0]?.chartVersion ?? ""}`];
      },
    });
  });
}

export const workloadCommands = () => [kustomizationCommand(), helmReleaseCommand()];
