// GitRepository (source.toolkit.fluxcd.io): v1 is stored, v1beta2 is served for manifests copied
// from older docs. The schemas are Flux's field for field (source-controller v1.9 for v1, v1.7 — the
// last to serve it — for v1beta2), so the API server prunes what Flux's CRD does not have; v1beta2's
// gitImplementation and accessFrom, no-ops in Flux too, go when the object is stored as v1.
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { Artifact } from "../meta/artifact.js";
import { accessFrom, arr, bool, crdFor, duration, localRef, obj, str, withoutFields, withRules } from "../crd.js";
import { artifactIn, sourceStatusFields } from "./source-status-schema.js";
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
  provider?: "generic" | "aws" | "azure" | "github";
  serviceAccountName?: string;
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
const include = () => obj({ repository: localRef(), fromPath: str(), toPath: str() }, ["repository"]);

const common = {
  url: str({ pattern: "^(http|https|ssh)://.*$" }),
  secretRef: localRef(),
  interval: duration(),
  timeout: { ...duration(false), default: "60s" },
  ref: refSchema,
  ignore: str(),
  suspend: bool(),
  recurseSubmodules: bool(),
  include: arr(include()),
};

const v1Spec = withRules(
  obj(
    {
      ...common,
      verify: obj(
        { mode: { ...str({ enum: ["head", "HEAD", "Tag", "TagAndHEAD"] }), default: "HEAD" }, secretRef: localRef() },
        ["secretRef"],
      ),
      proxySecretRef: localRef(),
      provider: str({ enum: ["generic", "aws", "azure", "github"] }),
      serviceAccountName: str(),
      sparseCheckout: arr(str()),
    },
    ["url", "interval"],
  ),
  [
    [
      "!has(self.serviceAccountName) || (has(self.provider) && (self.provider == 'azure' || self.provider == 'aws'))",
      "serviceAccountName can only be set when provider is 'azure' or 'aws'",
    ],
  ],
);

const v1beta2Spec = obj(
  {
    ...common,
    verify: obj({ mode: str({ enum: ["head"] }), secretRef: localRef() }, ["mode", "secretRef"]),
    gitImplementation: { ...str({ enum: ["go-git", "libgit2"] }), default: "go-git" },
    accessFrom: accessFrom(),
  },
  ["url", "interval"],
);

// v1beta1 (source-controller ≤ v1.6) had none of the observed* fields.
const statusFields = (version: string) =>
  sourceStatusFields(version, {
    includedArtifacts: arr(artifactIn(version)),
    ...(version === "v1beta1"
      ? {}
      : { observedIgnore: str(), observedRecurseSubmodules: bool(), observedInclude: arr(include()) }),
  });

export const gitRepositoryCrd = () =>
  crdFor(SERVED_KINDS.GitRepository, {
    v1: {
      spec: v1Spec,
      status: obj({ ...statusFields("v1"), observedSparseCheckout: arr(str()), sourceVerificationMode: str() }),
    },
    v1beta2: {
      spec: v1beta2Spec,
      status: obj({ ...statusFields("v1beta2"), contentConfigChecksum: str(), url: str() }),
    },
    // v1beta1 manifests (older Flux docs) apply as written: v1beta2's schema without what v1beta2 added.
    v1beta1: {
      spec: withoutFields(v1beta2Spec, ["ref.name"]),
      status: obj({ ...statusFields("v1beta1"), url: str() }),
    },
  });
