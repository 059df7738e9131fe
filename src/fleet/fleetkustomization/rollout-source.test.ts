import { describe, expect, it } from "vitest";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import type { GitRepository } from "../../api/source/git-repository.js";
import type { OCIRepository } from "../../api/source/oci-repository.js";
import type { KustomizationSpec } from "../../api/kustomize/kustomization.js";
import { pinnedName, pinnedSourceSpec, RolloutSourceError } from "../rollout/pinned-source.js";
import { pinnedSpec, rolloutSource } from "./rollout-source.js";
import { fleetKustomizationKind } from "./kind.js";

const digest = `sha256:${"ab12".repeat(16)}`;
const fk = (sourceRef: KustomizationSpec["sourceRef"], rollout = true) =>
  ({
    metadata: { name: "apps", namespace: "fleet", uid: "u" },
    spec: {
      clusterSelector: {},
      ...(rollout ? { rollout: { stages: [{ name: "canary", clusterSelector: {} }] } } : {}),
      template: { spec: { sourceRef, path: "./deploy", interval: "1m", prune: true } },
    },
  }) as unknown as FleetKustomization;

const oci = {
  metadata: { name: "manifests", namespace: "fleet" },
  spec: { url: "oci://127.0.0.1:5000/manifests", ref: { semver: ">=1.0.0", semverFilter: ".*" }, interval: "1m" },
} as OCIRepository;

describe("a staged rollout pins an OCIRepository at a manifest digest", () => {
  it("the pinned copy keeps the original's spec with ref.digest alone (tag, semver and filter dropped)", () => {
    expect(pinnedSourceSpec("OCIRepository", oci, `1.2.0@${digest}`)).toEqual({
      url: "oci://127.0.0.1:5000/manifests",
      ref: { digest },
      interval: "1m",
    });
  });

  it("a digest-only revision (an OCIRepository already at ref.digest) pins the same digest", () => {
    expect(pinnedSourceSpec("OCIRepository", oci, digest).ref).toEqual({ digest });
  });

  it("a revision without a sha256 digest is refused naming the OCIRepository and the revision", () => {
    expect(() => pinnedSourceSpec("OCIRepository", oci, "v1")).toThrow(
      /cannot pin OCIRepository manifests at revision "v1": expected <tag>@sha256:<digest>/,
    );
  });

  it("a GitRepository is still pinned at the commit on its branch", () => {
    const git = {
      metadata: { name: "g" },
      spec: { url: "u", ref: { branch: "main" }, interval: "1m" },
    } as GitRepository;
    expect(pinnedSourceSpec("GitRepository", git, "main@sha1:0123456789abcdef").ref).toEqual({
      branch: "main",
      commit: "0123456789abcdef",
    });
  });

  it("the pinned name is the parent's plus the digest's first 10 hex, whatever the tag", () => {
    const parent = fk({ kind: "OCIRepository", name: "manifests" });
    expect(pinnedName(parent, `v1@${digest}`)).toBe("apps-ab12ab12ab");
    expect(pinnedName(parent, `v2@${digest}`)).toBe(pinnedName(parent, digest));
  });

  it("a held child reads the pinned copy under the template's own kind", () => {
    const spec = fk({ kind: "OCIRepository", name: "manifests" }).spec.template.spec;
    expect(pinnedSpec(spec, "apps-ab12ab12ab").sourceRef).toEqual({ kind: "OCIRepository", name: "apps-ab12ab12ab" });
  });

  it("a Bucket source or an OCIRepository in another namespace is refused by name", () => {
    expect(() => rolloutSource(fk({ kind: "Bucket", name: "b" }))).toThrow(RolloutSourceError);
    expect(() => rolloutSource(fk({ kind: "Bucket", name: "b" }))).toThrow(/sourceRef is a Bucket/);
    expect(() => rolloutSource(fk({ kind: "OCIRepository", name: "m", namespace: "other" }))).toThrow(
      /OCIRepository other\/m is in another namespace: put the OCIRepository in fleet/,
    );
  });

  it("a new artifact of an OCIRepository re-reads the staged parents reading it, not those reading a GitRepository of that name", () => {
    const parents = [
      fk({ kind: "OCIRepository", name: "manifests" }),
      fk({ kind: "GitRepository", name: "manifests" }),
    ];
    const watch = fleetKustomizationKind.pins!.sources.find((s) => s.kind.kind === "OCIRepository")!;
    expect(watch.parentsOf(oci, parents)).toEqual([parents[0]]);
  });
});
