// `flotilla kustomize build DIR`: what `kustomize build DIR` prints, built in-process.
import { existsSync } from "node:fs";
import { Command } from "commander";
import { proxyEnv } from "../../binaries/helm/index.js";
import { buildKustomization } from "../../kustomize/index.js";
import { UsageError } from "../errors.js";

interface BuildFlags {
  generateKustomization: boolean;
  enableHelm: boolean;
  helmCommand?: string;
  helmAllowPull: boolean;
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
          // Unset, binaries/helm picks flotilla's pinned helm when built, else PATH's (kustomize's default).
          helmCommand: opts.helmCommand,
          helmAllowPull: opts.helmAllowPull,
          // kustomize hands helm the whole environment; we pass only the proxies a pull may need.
          helmEnv: proxyEnv(),
        }),
      );
    });
  return cmd;
}
