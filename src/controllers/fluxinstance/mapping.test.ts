import { describe, expect, it } from "vitest";
import type { FluxInstanceSpec } from "../../api/operator/fluxinstance.js";
import { MIGRATE_NOT_DONE, mapInstance } from "./mapping.js";

const spec = (extra: Partial<FluxInstanceSpec> = {}): FluxInstanceSpec => ({
  distribution: {
    version: "2.x",
    registry: "ghcr.io/fluxcd",
    artifact: "oci://ghcr.io/controlplaneio-fluxcd/flux-operator-manifests",
  },
  ...extra,
});

describe("FluxInstance fields mapped onto flotilla's controller process", () => {
  it("states the distribution and the components, naming those flotilla does not provide", () => {
    const m = mapInstance(
      spec({ components: ["source-controller", "kustomize-controller", "image-automation-controller"] }),
      {},
    );
    expect(m.blocked).toBeUndefined();
    expect(m.statements[0]).toMatch(
      /^distribution: flotilla serves the Flux v2\.9\.5 APIs in place of Flux 2\.x; registry ghcr\.io\/fluxcd, artifact oci:\/\/.* not pulled/,
    );
    expect(m.statements[1]).toBe(
      "components: source-controller, kustomize-controller run in flotilla's one controller process; not provided by flotilla: image-automation-controller",
    );
  });

  it("blocks the sync when cluster.multitenant asks for a lockdown the process does not run with, naming the flags", () => {
    const s = spec({ cluster: { multitenant: true, tenantDefaultServiceAccount: "flux" } });
    expect(mapInstance(s, { noCrossNamespaceRefs: false }).blocked).toBe(
      "cluster.multitenant asks for the multi-tenancy lockdown, which this controller process does not run with: restart it with --no-cross-namespace-refs=true --no-remote-bases=true --default-service-account=flux (flotilla install --multi-tenant writes them)",
    );
    const ok = mapInstance(s, { noCrossNamespaceRefs: true, defaultServiceAccount: "flux" });
    expect(ok.blocked).toBeUndefined();
    expect(ok.statements).toContain(
      "cluster.multitenant: in effect (--no-cross-namespace-refs=true --default-service-account=flux)",
    );
  });

  it("states sharding, size, type, storage and kustomize patches against the process's flags", () => {
    const m = mapInstance(
      spec({
        sharding: { key: "sharding.fluxcd.io/key", shards: ["shard1", "shard2"] },
        cluster: { size: "large", type: "openshift" },
        storage: { class: "standard", size: "10Gi" },
        kustomize: { patches: [{ patch: "x" }] },
      }),
      { watchLabelSelector: "!sharding.fluxcd.io/key", concurrent: 4 },
    );
    expect(m.statements.slice(2)).toEqual([
      "sharding by sharding.fluxcd.io/key is not deployed as asked: this controller runs --watch-label-selector=!sharding.fluxcd.io/key; no Deployment selects shard1, shard2; deploy it with flotilla install --shards shard1,shard2",
      "cluster.size large: --concurrent=20 (this process runs with --concurrent=4)",
      "cluster.type openshift: no platform profile in flotilla",
      "storage standard/10Gi: the controller's --storage-path volume (flotilla install)",
      "kustomize.patches (1): not applied: they patch the operator's Flux manifests, which flotilla does not deploy",
      MIGRATE_NOT_DONE,
    ]);
  });

  it("states spec.migrateResources (the operator's default, true) as not done, and nothing when it is false", () => {
    expect(MIGRATE_NOT_DONE).toMatch(/^migrateResources: not done: .*storedVersions/);
    expect(mapInstance(spec({ migrateResources: true }), {}).statements).toContain(MIGRATE_NOT_DONE);
    expect(mapInstance(spec({ migrateResources: false }), {}).statements).not.toContain(MIGRATE_NOT_DONE);
  });

  it("says when the requested version range does not hold the Flux APIs flotilla serves", () => {
    expect(mapInstance(spec({ distribution: { version: "2.3.x", registry: "r" } }), {}).statements[0]).toContain(
      "(outside the requested range",
    );
    expect(mapInstance(spec({ distribution: { version: "2.9.x", registry: "r" } }), {}).statements[0]).not.toContain(
      "outside",
    );
  });
});
