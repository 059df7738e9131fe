// A chart version a change asks for, pulled by the real helm from the HelmRepository the HelmChart will
// read it from — `helm pull --repo <url>` with the same version constraint; from an OCI HelmRepository
// with the OCI library's client (oci-chart-pull.ts), as the HelmChart controller reads it.
// A repository behind credentials or client certificates is refused with a message: handing its Secret
// to a helm process on the command line would show it to every local user (ps).
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { HelmRepository } from "../../api/source/helm.js";
import { runHelm } from "../../binaries/helm/index.js";
import { pullOciChart } from "./oci-chart-pull.js";

export async function pullChart(repo: HelmRepository, chart: string, version: string, work: string): Promise<string> {
  const id = `HelmRepository ${repo.metadata.namespace}/${repo.metadata.name}`;
  if (repo.spec.secretRef || repo.spec.certSecretRef)
    throw new Error(
      `${chart}@${version} would come from ${id}, which needs credentials: the plan does not pass a Secret to helm; plan with the chart in a replaced GitRepository, or after the HelmChart has it`,
    );
  if (repo.spec.type === "oci") return pullOciChart(repo, chart, version, work);
  const dir = join(
    work,
    `pulled-${repo.metadata.namespace}-${repo.metadata.name}-${chart}-${version}`.replace(/[^\w.-]/g, "_"),
  );
  mkdirSync(dir, { recursive: true });
  const base = repo.spec.url.replace(/\/+$/, "");
  // The chart after "--": a name from the HelmRelease's spec is never read as a flag.
  const flags = ["--version", version, "--destination", dir];
  const args = ["pull", "--repo", base, ...flags, "--", chart];
  try {
    await runHelm(args);
  } catch (err) {
    throw new Error(`pulling ${chart}@${version} from ${id}: ${(err as Error).message}`);
  }
  const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  if (!tgz) throw new Error(`pulling ${chart}@${version} from ${id}: helm wrote no chart package`);
  return join(dir, tgz);
}
