// `flotilla kustomize build DIR`: what `kustomize build DIR` prints, built in-process.
import { existsSync } from "node:fs";
import { Command } from "commander";
import { buildKustomization } from "../../kustomize/index.js";
import { locateToolchain } from "../../local/toolchain.js";
import { UsageError } from "../errors.js";

interface BuildFlags {
  generateKustomization: boolean;
  enableHelm: boolean;
  helmCommand?: string;
  helmAllowPull: boolean;
}

/** kustomize runs `helm` from PATH; we prefer the helm flotilla's toolchain pins, when it is built. */
function defaultHelm(): string {
  const pinned = locateToolchain().helm;
  return existsSync(pinned) ? pinned : "helm";
}

export function kustomizeCommand(): Command {
  const cmd = new Command("kustomize").description("native kustomize, byte-identical to kustomize v5");
  cmd
    .command("build <dir>")
    .description("build a kustomization directory and print the resources, exactly as `kustomize build` does")
    .option(
      "--generate-kustomization",
      "build all manifests of a directory that has no kustomization file (Flux's behaviour)",
      false,
    )
    .option("--enable-helm", "render helmCharts with `helm template`, as kustomize's --enable-helm", false)
    .option("--helm-command <path>", "the helm binary (default: flotilla's pinned helm if built, else helm)")
    .option("--helm-allow-pull", "let helm pull charts that are not vendored under chartHome (network)", false)
    .action(async (dir: string, opts: BuildFlags) => {
      if (!existsSync(dir)) throw new UsageError(`kustomize build: directory ${dir} does not exist`);
      process.stdout.write(
        await buildKustomization(dir, {
          generateKustomization: opts.generateKustomization,
          enableHelm: opts.enableHelm,
          helmCommand: opts.enableHelm ? (opts.helmCommand ?? defaultHelm()) : undefined,
          helmAllowPull: opts.helmAllowPull,
        }),
      );
    });
  return cmd;
}
