// `flotilla kustomize build DIR`: what `kustomize build DIR` prints, built in-process.
import { Command } from "commander";
import { buildKustomization } from "../../kustomize/index.js";

export function kustomizeCommand(): Command {
  const cmd = new Command("kustomize").description("native kustomize, byte-identical to kustomize v5");
  cmd
    .command("build <dir>")
    .description("build a kustomization directory and print the resources, exactly as `kustomize build` does")
    .option("--enable-remote-bases", "allow remote (URL) bases; refused by default, as Flux's --no-remote-bases", false)
    .option(
      "--generate-kustomization",
      "build all manifests of a directory that has no kustomization file (Flux's behaviour)",
      false,
    )
    .action(async (dir: string, opts: { enableRemoteBases: boolean; generateKustomization: boolean }) => {
      process.stdout.write(
        await buildKustomization(dir, {
          allowRemoteBases: opts.enableRemoteBases,
          generateKustomization: opts.generateKustomization,
        }),
      );
    });
  return cmd;
}
