// What the OCI CLI e2e tests share: an app directory to push (with a file flux's default --ignore-paths
// leave out), the files a directory holds, and the built CLI run with its own HOME (no stray docker config).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { type CliResult, runCli } from "./cli.js";

/** Every file under `dir`, relative, with its content. */
export function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

/** `<scratch>/<name>`, made. */
export function freshDir(scratch: string, name: string): string {
  const d = join(scratch, name);
  mkdirSync(d, { recursive: true });
  return d;
}

/** A kustomize app under `<scratch>/app`, plus logo.png that flux's default --ignore-paths leave out. */
export function writeApp(scratch: string): { dir: string; pushed: Record<string, string> } {
  const dir = freshDir(scratch, "app");
  mkdirSync(join(dir, "base"));
  writeFileSync(
    join(dir, "base", "deployment.yaml"),
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n",
  );
  writeFileSync(join(dir, "kustomization.yaml"), "resources:\n- base/deployment.yaml\n");
  const pushed = filesOf(dir);
  writeFileSync(join(dir, "logo.png"), "not really a png");
  return { dir, pushed };
}

/** The built flotilla with HOME at `home`. */
export const flotillaIn =
  (home: () => string) =>
  (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
    runCli(args, { env: { ...process.env, HOME: home(), ...env } });
