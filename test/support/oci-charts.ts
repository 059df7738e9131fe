// Charts in a real OCI registry (oci-registry.ts), put there the way chart authors do it: written as a
// directory, `helm package`d and `helm push`ed by the real helm (its OCI layout and media types).
//
//   const reg = await startOciRegistry();
//   await pushChart(reg, "web", "1.2.0");            // oci://127.0.0.1:PORT/charts/web:1.2.0
//   await pushChart(reg, "web", "1.3.0", { message: "new" });
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { runHelm as runHelmBinary } from "../../src/binaries/helm/index.js";
import { chartFiles, helmBinary, helmEnv, runHelm } from "./chart-repo.js";
import type { OciRegistry } from "./oci-registry.js";

export const CHARTS_PATH = "charts";

export interface PushChartOptions {
  /** The ConfigMap's `message` (values.yaml), to tell versions apart on a cluster. */
  message?: string;
  /** Credentials when the registry has htpasswd on. */
  auth?: { username: string; password: string };
}

/**
 * Packages chart name@version and pushes it to `<registry>/charts/<name>:<version>` with the real helm;
 * resolves to the manifest digest helm reports (`Digest: sha256:…`).
 */
export async function pushChart(
  reg: OciRegistry,
  name: string,
  version: string,
  opts: PushChartOptions = {},
): Promise<string> {
  const work = makeWorkDir("flotilla-oci-chart-");
  const env = helmEnv(join(work, "home"));
  const src = join(work, "src", name);
  const message = opts.message ?? `${name} ${version}`;
  const files = chartFiles(name, version, { files: { "values.yaml": `message: ${JSON.stringify(message)}\n` } });
  for (const [file, text] of Object.entries(files)) {
    if (text === null) continue;
    mkdirSync(dirname(join(src, file)), { recursive: true });
    writeFileSync(join(src, file), text);
  }
  await runHelm(["package", src, "--destination", work], env);
  const tls = reg.caPem ? ["--ca-file", writeCa(work, reg.caPem)] : ["--plain-http"];
  const auth = opts.auth ? ["--username", opts.auth.username, "--password", opts.auth.password] : [];
  const pushed = await runHelmBinary(
    ["push", join(work, `${name}-${version}.tgz`), `${reg.url}/${CHARTS_PATH}`, ...tls, ...auth],
    { binary: helmBinary(), env: definedOnly(env) },
  );
  const digest = /Digest: (sha256:[a-f0-9]{64})/.exec(`${pushed.stdout}\n${pushed.stderr}`)?.[1];
  if (!digest) throw new Error(`helm push of ${name}:${version} printed no digest:\n${pushed.stderr}`);
  return digest;
}

const definedOnly = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>;

function writeCa(dir: string, pem: string): string {
  const file = join(dir, "ca.crt");
  writeFileSync(file, pem);
  return file;
}
