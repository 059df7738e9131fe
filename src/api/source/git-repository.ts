// GitRepository (source.toolkit.fluxcd.io): v1 is stored, v1beta2 is served for manifests copied
// from older docs (its extra fields — gitImplementation, accessFrom — are accepted and ignored).
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { Artifact } from "../meta/artifact.js";
import { arr, artifact, bool, condition, crdFor, duration, localRef, obj, open, str } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";

export interface GitRepositoryRef {
  branch?: string;
  tag?: string;
  semver?: string;
  name?: string;
  commit?: string;
}

export interface GitRepositorySpec {
  url: string;
  secretRef?: { name: string };
  interval: string;
  timeout?: string;
  ref?: GitRepositoryRef;
  ignore?: string;
  suspend?: boolean;
  include?: { repository: { name: string }; fromPath?: string; toPath?: string }[];
  recurseSubmodules?: boolean;
  sparseCheckout?: string[];
  verify?: { mode?: "HEAD" | "head" | "Tag" | "TagAndHEAD"; secretRef?: { name: string } };
  proxySecretRef?: { name: string };
}

export interface GitRepositoryStatus {
  observedGeneration?: number;
  conditions?: Condition[];
  artifact?: Artifact;
  observedIgnore?: string;
  includedArtifacts?: Artifact[];
  observedInclude?: GitRepositorySpec["include"];
  observedRecurseSubmodules?: boolean;
  observedSparseCheckout?: string[];
  sourceVerificationMode?: string;
  lastHandledReconcileAt?: string;
}

export type GitRepository = KubeObject & { spec: GitRepositorySpec; status?: GitRepositoryStatus };

const refSchema = obj({ branch: str(), tag: str(), semver: str(), name: str(), commit: str() });

const spec = (v1: boolean) =>
  obj(
    {
      url: str({ pattern: "^(http|https|ssh)://.*$" }),
      secretRef: localRef(),
      interval: duration(),
      timeout: { ...duration(false), default: "60s" },
      ref: refSchema,
      ignore: str(),
      suspend: bool(),
      recurseSubmodules: bool(),
      include: arr(obj({ repository: localRef(), fromPath: str(), toPath: str() }, ["repository"])),
      verify: obj(
        { mode: { ...str({ enum: ["head", "HEAD", "Tag", "TagAndHEAD"] }), default: "HEAD" }, secretRef: localRef() },
        ["secretRef"],
      ),
      proxySecretRef: localRef(),
      provider: str(),
      sparseCheckout: arr(str()),
      ...(v1 ? {} : { gitImplementation: str(), accessFrom: open() }),
    },
    ["url", "interval"],
  );

const status = obj({
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  artifact: artifact(),
  includedArtifacts: arr(artifact()),
  observedIgnore: str(),
  observedRecurseSubmodules: bool(),
  observedInclude: arr(open()),
  observedSparseCheckout: arr(str()),
  sourceVerificationMode: str(),
  lastHandledReconcileAt: str(),
  url: str(),
});

export const gitRepositoryCrd = () =>
  crdFor(SERVED_KINDS.GitRepository, {
    v1: { spec: spec(true), status },
    v1beta2: { spec: spec(false), status },
  });
