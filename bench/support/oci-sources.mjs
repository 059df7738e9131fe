// For bench/vs-flux.bench.mjs --source oci: the same app and chart, served from a local OCI registry (the
// tools-built CNCF distribution registry on loopback): the N apps as ONE Flux artifact (flotilla's push,
// Flux's format), the chart pushed by the real `helm push`. Both tools read them through an OCIRepository.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { chartFiles } from "./chart-server.mjs";

const { startLocalRegistry } = await import("../../dist/local/oci-registry.js");
const { RegistryClient } = await import("../../dist/sources/oci/client.js");
const { buildArtifact, pushArtifact } = await import("../../dist/sources/oci/flux-artifact.js");
const { parseOciUrl } = await import("../../dist/sources/oci/reference.js");

const writeTree = (root, files) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
};

/** A registry holding `apps:v1` (the files given) or the chart `charts/bench:1.0.0`; url is the repository's. */
export async function startOciSource(kind, files, helm) {
  const dir = mkdtempSync(join(tmpdir(), "vs-flux-oci-"));
  const registry = await startLocalRegistry(join(dir, "registry"));
  const close = async () => {
    await registry.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (kind === "kustomizations") {
      writeTree(join(dir, "apps"), files);
      const url = `${registry.url}/apps`;
      const client = new RegistryClient(registry.host, { insecure: true });
      const ref = { ...parseOciUrl(url), tag: "v1" };
      await pushArtifact(client, ref, await buildArtifact(join(dir, "apps"), []), {
        source: "bench",
        revision: "v1",
      });
      await client.close();
      return { url, tag: "v1", close };
    }
    writeTree(join(dir, "bench"), chartFiles("bench", "1.0.0"));
    const env = { ...process.env, HELM_CACHE_HOME: dir, HELM_CONFIG_HOME: dir, HELM_DATA_HOME: dir };
    execFileSync(helm, ["package", join(dir, "bench"), "-d", dir], { env, stdio: "pipe" });
    execFileSync(helm, ["push", join(dir, "bench-1.0.0.tgz"), `${registry.url}/charts`, "--plain-http"], {
      env,
      stdio: "pipe",
    });
    return { url: `${registry.url}/charts/bench`, tag: "1.0.0", close };
  } catch (e) {
    await close();
    throw new Error(`serving the ${kind} source from an OCI registry: ${e.stderr ?? e.message}`);
  }
}
