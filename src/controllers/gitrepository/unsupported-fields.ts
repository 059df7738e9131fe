// The GitRepository fields of Flux's v1 API that flotilla does not implement (kit/unsupported.ts):
// cloud-provider authentication. Everything else is implemented (ssh and http(s) URLs, secretRef,
// proxySecretRef, ref, include, ignore, sparseCheckout, recurseSubmodules, OpenPGP verify).
import type { GitRepositorySpec } from "../../api/source/git-repository.js";
import type { UnsupportedField } from "../kit/unsupported.js";

export const GIT_REPOSITORY_UNSUPPORTED: UnsupportedField<GitRepositorySpec>[] = [
  {
    field: "spec.provider (aws, azure, github)",
    find: (s) => (s.provider && s.provider !== "generic" ? `spec.provider '${s.provider}'` : undefined),
    instead: "use spec.provider: generic with spec.secretRef (basic auth, a bearer token or an ssh key)",
  },
  {
    field: "spec.serviceAccountName",
    find: (s) => (s.serviceAccountName ? "spec.serviceAccountName" : undefined),
    instead: "authenticate with spec.secretRef; workload identity is not implemented",
  },
];
