// The image and Deployment flags `flotilla install` and `bootstrap git` share, named as flux's
// (`--registry`, `--version`, `--image-pull-secret`, `--network-policy`) plus flotilla's own `--image`
// (one full reference, for an image pushed elsewhere under another name) and `--pod-disruption-budget`.
import { type Command, Option } from "commander";
import { DEFAULT_REGISTRY, IMAGE_NAME, type InstallOptions } from "../install/manifests.js";
import { UsageError } from "./errors.js";
import { goBoolOption } from "./flags.js";
import { VERSION } from "./version.js";

export interface ImageFlags {
  registry: string;
  version: string;
  image?: string;
  imagePullSecret?: string;
  networkPolicy: boolean;
  podDisruptionBudget: boolean;
}

export function addImageFlags(cmd: Command): Command {
  return cmd
    .option(
      "--registry <registry>",
      `container registry (and repository prefix) the flotilla image is published to: the image is <registry>/${IMAGE_NAME}:<version>`,
      DEFAULT_REGISTRY,
    )
    .addOption(new Option("-v, --version <version>", "flotilla version, the image's tag").default(VERSION))
    .option(
      "--image <reference>",
      "the controller image as one full reference (tag or digest), instead of --registry/--version",
    )
    .option("--image-pull-secret <name>", "Kubernetes secret name used for pulling the image from a private registry")
    .addOption(
      goBoolOption(
        "--network-policy",
        "deny ingress access to the controller from other namespaces using network policies, but for webhooks and metrics",
        true,
      ),
    )
    .addOption(
      goBoolOption(
        "--pod-disruption-budget",
        "keep one controller pod through voluntary disruptions (a node drain then waits while it is the only one)",
        false,
      ),
    );
}

const TAG = /^[\w][\w.-]{0,127}$/;
// A registry host (with a port) and path, lower case, no tag or digest.
const REPOSITORY = /^[a-z0-9]+([._-][a-z0-9]+)*(:\d+)?(\/[a-z0-9]+([._-]+[a-z0-9]+)*)*$/;

/** The image reference the Deployment runs: --image as given, else <registry>/flotilla:<version>. */
export function imageReference(f: Pick<ImageFlags, "registry" | "version" | "image">): string {
  if (f.image !== undefined) {
    const [name, digest] = f.image.split("@");
    const slash = name!.lastIndexOf("/");
    const colon = name!.lastIndexOf(":");
    const tagged = colon > slash && TAG.test(name!.slice(colon + 1));
    const repository = tagged ? name!.slice(0, colon) : name!;
    if (!REPOSITORY.test(repository) || (digest !== undefined && !/^sha256:[0-9a-f]{64}$/.test(digest)))
      throw new UsageError(`--image "${f.image}" is not an image reference (registry/repository:tag or @sha256:…)`);
    if (!tagged && digest === undefined)
      throw new UsageError(
        `--image "${f.image}" has no tag or digest: give the full reference, e.g. ${f.image}:${VERSION} (or use --registry and --version)`,
      );
    return f.image;
  }
  const registry = f.registry.replace(/\/+$/, "");
  if (!REPOSITORY.test(registry))
    throw new UsageError(`--registry "${f.registry}" is not a registry/repository prefix (e.g. ghcr.io/flotilla-dev)`);
  // Images are tagged with the package version; flux's --version takes "v2.3.0" as well, so a leading v goes.
  const version = f.version.replace(/^v(?=\d)/, "");
  if (!TAG.test(version)) throw new UsageError(`--version "${f.version}" is not an image tag (e.g. ${VERSION})`);
  return `${registry}/${IMAGE_NAME}:${version}`;
}

export function installOptionsOf(f: ImageFlags, o: { namespace: string; multiTenant?: boolean }): InstallOptions {
  return {
    namespace: o.namespace,
    image: imageReference(f),
    version: VERSION,
    multiTenant: !!o.multiTenant,
    ...(f.imagePullSecret ? { imagePullSecret: f.imagePullSecret } : {}),
    networkPolicy: f.networkPolicy,
    podDisruptionBudget: f.podDisruptionBudget,
  };
}
