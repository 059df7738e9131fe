// OCIRepository (source.toolkit.fluxcd.io): an artifact pulled from an OCI registry. v1 is stored,
// v1beta2 served (deprecated) for manifests from older docs. The schemas are Flux's field for field
// (source-controller v1.9 for v1, v1.6 — the last to serve it — for v1beta2), so the API server
// prunes what Flux's CRD does not have; v1beta2's status.contentConfigChecksum is unused in Flux too.
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { Artifact } from "../meta/artifact.js";
import { arr, artifact, bool, condition, crdFor, duration, localRef, obj, str, withoutFields } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";

export interface OCIRepositoryRef {
  tag?: string;
  semver?: string;
  semverFilter?: string;
  digest?: string;
}

export interface OCILayerSelector {
  mediaType?: string;
  operation?: "extract" | "copy";
}

export interface OCIRepositorySpec {
  url: string;
  ref?: OCIRepositoryRef;
  layerSelector?: OCILayerSelector;
  provider?: "generic" | "aws" | "azure" | "gcp";
  secretRef?: { name: string };
  verify?: {
    provider: "cosign" | "notation";
    secretRef?: { name: string };
    matchOIDCIdentity?: { issuer: string; subject: string }[];
    trustedRootSecretRef?: { name: string };
  };
  serviceAccountName?: string;
  certSecretRef?: { name: string };
  proxySecretRef?: { name: string };
  interval: string;
  timeout?: string;
  ignore?: string;
  insecure?: boolean;
  suspend?: boolean;
}

export interface OCIRepositoryStatus {
  observedGeneration?: number;
  conditions?: Condition[];
  url?: string;
  artifact?: Artifact;
  observedIgnore?: string;
  observedLayerSelector?: OCILayerSelector;
  lastHandledReconcileAt?: string;
}

export type OCIRepository = KubeObject & { spec: OCIRepositorySpec; status?: OCIRepositoryStatus };

const layerSelector = () => obj({ mediaType: str(), operation: str({ enum: ["extract", "copy"] }) });

const v1Spec = obj(
  {
    url: str({ pattern: "^oci://.*$" }),
    ref: obj({ digest: str(), semver: str(), semverFilter: str(), tag: str() }),
    layerSelector: layerSelector(),
    provider: { ...str({ enum: ["generic", "aws", "azure", "gcp"] }), default: "generic" },
    secretRef: localRef(),
    verify: obj(
      {
        provider: { ...str({ enum: ["cosign", "notation"] }), default: "cosign" },
        secretRef: localRef(),
        matchOIDCIdentity: arr(obj({ issuer: str(), subject: str() }, ["issuer", "subject"])),
        trustedRootSecretRef: localRef(),
      },
      ["provider"],
    ),
    serviceAccountName: str(),
    certSecretRef: localRef(),
    proxySecretRef: localRef(),
    interval: duration(),
    timeout: { ...duration(false), default: "60s" },
    ignore: str(),
    insecure: bool(),
    suspend: bool(),
  },
  ["interval", "url"],
);

const statusFields = {
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  url: str(),
  artifact: artifact(),
  observedIgnore: str(),
  observedLayerSelector: layerSelector(),
  lastHandledReconcileAt: str(),
};

export const ociRepositoryCrd = () =>
  crdFor(SERVED_KINDS.OCIRepository, {
    v1: { spec: v1Spec, status: obj(statusFields) },
    // source-controller v1.6's v1beta2: v1's schema before verify.trustedRootSecretRef.
    v1beta2: {
      spec: withoutFields(v1Spec, ["verify.trustedRootSecretRef"]),
      status: obj({ ...statusFields, contentConfigChecksum: str() }),
    },
  });
