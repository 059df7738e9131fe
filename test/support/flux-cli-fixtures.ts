// flux's CLI test objects (test/fixtures/flux-cli, copied from fluxcd/flux2) created on the real
// management plane as flux's envtest does: `{{ .fluxns }}` replaced by the test's namespace, each
// object created, then its status written through the status subresource.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { servedCrds } from "../../src/api/flux-crds.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { pathOf } from "../../src/api/paths.js";
import type { Cluster } from "../../src/kube/cluster.js";

export const FLUX_CLI_FIXTURES = "test/fixtures/flux-cli";

/** A golden with the test's namespace in place of `{{ .fluxns }}`. */
export const fluxGolden = (file: string, ns: string) =>
  readFileSync(join(FLUX_CLI_FIXTURES, file), "utf8").replaceAll("{{ .fluxns }}", ns);

export async function createFluxObjects(cluster: Cluster, file: string, ns: string): Promise<void> {
  await ensureFluxCrds(cluster);
  for (const doc of parseAllDocuments(fluxGolden(file, ns))) {
    const obj = doc.toJS() as (KubeObject & { status?: unknown }) | null;
    if (!obj || obj.kind === "Namespace") continue; // testNamespace made it
    const kind = SERVED_KINDS[obj.kind as keyof typeof SERVED_KINDS];
    if (!kind) throw new Error(`${file}: no served kind ${obj.kind}`);
    const { status, ...rest } = obj;
    await cluster.client.create(pathOf(kind, ns), rest);
    if (status) await cluster.client.patch(pathOf(kind, ns, obj.metadata.name, "status"), "merge", { status });
  }
}

/** Flux's CRDs on `cluster`, served (a test file may run before any other has installed them). */
export async function ensureFluxCrds(cluster: Cluster): Promise<void> {
  for (const crd of servedCrds()) await cluster.apply(crd as unknown as KubeObject, "flotilla-test", { force: true });
  for (const crd of servedCrds() as unknown as {
    spec: { group: string; names: { kind: string }; versions: { name: string; storage: boolean }[] };
  }[])
    await cluster.discovery.waitForMapping(
      { group: crd.spec.group, version: crd.spec.versions.find((v) => v.storage)!.name, kind: crd.spec.names.kind },
      30_000,
    );
}
