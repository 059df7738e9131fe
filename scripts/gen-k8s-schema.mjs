#!/usr/bin/env node
// Regenerates src/kustomize/schema/k8s-schema.json — which kinds are namespaced, for the namespace
// transformer — from a real kube-apiserver's OpenAPI v2 and discovery:
//   kinds: "group/version/Kind" → [definition, namespaced (1/0)]
// (Strategic merge keys come from kustomize's own embedded schema: scripts/gen-merge-schema.mjs.)
// usage: node scripts/gen-k8s-schema.mjs   (starts a one-plane local fleet, or reuses FLOTILLA_FLEET_DIR)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const { KubeClient, closeAllConnections } = await import("../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../dist/kube/kubeconfig.js");
const { upFleet, downFleet, readFleetState } = await import("../dist/local/index.js");

let dir = process.env.FLOTILLA_FLEET_DIR;
let started = false;
if (!dir || !readFleetState(dir)) {
  dir = mkdtempSync(join(tmpdir(), "flotilla-schema-"));
  await upFleet({ dir, tenants: 0 });
  started = true;
}
try {
  const client = new KubeClient(endpointFromKubeconfigFile(readFleetState(dir).planes[0].kubeconfig));
  const openapi = await client.get("/openapi/v2");
  const version = (await client.get("/version")).gitVersion;
  const namespaced = new Map();
  const groups = [{ path: "/api/v1", gv: "v1" }];
  for (const g of (await client.get("/apis")).groups)
    for (const v of g.versions) groups.push({ path: `/apis/${v.groupVersion}`, gv: v.groupVersion });
  for (const { path, gv } of groups) {
    for (const r of (await client.get(path)).resources)
      if (!r.name.includes("/")) namespaced.set(`${gv.includes("/") ? gv : `/${gv}`}/${r.kind}`, r.namespaced);
  }
  const kinds = {};
  for (const [name, def] of Object.entries(openapi.definitions)) {
    for (const gvk of def["x-kubernetes-group-version-kind"] ?? []) {
      const key = `${gvk.group}/${gvk.version}/${gvk.kind}`;
      if (namespaced.has(key)) kinds[key] = [name, namespaced.get(key) ? 1 : 0];
    }
  }
  const out = { source: `kube-apiserver ${version} /openapi/v2 and discovery`, kinds };
  writeFileSync("src/kustomize/schema/k8s-schema.json", `${JSON.stringify(out)}\n`);
  console.log(`wrote ${Object.keys(kinds).length} kinds from ${version}`);
  await closeAllConnections();
} finally {
  if (started) {
    await downFleet(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}
