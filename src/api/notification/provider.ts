// Provider (notification.toolkit.fluxcd.io): where an Alert's events go and how. v1beta3 stored,
// v1beta2 served (deprecated); schemas as notification-controller v1.9.3 (v1beta3) and v1.8.4 (v1beta2)
// declare them. Like Alert, flotilla's v1beta3 keeps a status Flux's lacks: a type flotilla does not
// deliver, or a Secret missing its key, is stated there (decision 0037).
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import { arr, bool, condition, crdFor, duration, localRef, obj, str, withoutFields, withRules } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";

/** Every provider type Flux's v1beta3 API names (spec.type's enum), in Flux's order. */
export const PROVIDER_TYPES = [
  "slack",
  "discord",
  "msteams",
  "rocket",
  "generic",
  "generic-hmac",
  "github",
  "gitlab",
  "gitea",
  "giteapullrequestcomment",
  "bitbucketserver",
  "bitbucket",
  "azuredevops",
  "googlechat",
  "googlepubsub",
  "webex",
  "sentry",
  "azureeventhub",
  "telegram",
  "lark",
  "matrix",
  "opsgenie",
  "alertmanager",
  "grafana",
  "githubdispatch",
  "githubpullrequestcomment",
  "gitlabmergerequestcomment",
  "pagerduty",
  "datadog",
  "nats",
  "zulip",
  "otel",
  "zoom",
  "incident.io",
] as const;

/** v1beta2's enum (notification-controller v1.8.4): v1beta3's without the types added since, in the same order. */
const ADDED_AFTER_V1BETA2: readonly string[] = [
  "giteapullrequestcomment",
  "githubpullrequestcomment",
  "gitlabmergerequestcomment",
  "nats",
  "zulip",
  "otel",
  "zoom",
  "incident.io",
];
const PROVIDER_TYPES_V1BETA2 = PROVIDER_TYPES.filter((t) => !ADDED_AFTER_V1BETA2.includes(t));

/** The types whose events set a commit status on a Git forge (Flux's isCommitStatusProvider). */
export const COMMIT_STATUS_TYPES = ["github", "gitlab", "gitea", "bitbucketserver", "bitbucket", "azuredevops"];

export interface ProviderSpec {
  type: string;
  interval?: string;
  channel?: string;
  username?: string;
  address?: string;
  timeout?: string;
  proxy?: string;
  proxySecretRef?: { name: string };
  secretRef?: { name: string };
  serviceAccountName?: string;
  certSecretRef?: { name: string };
  suspend?: boolean;
  commitStatusExpr?: string;
}

export type Provider = KubeObject & {
  spec: ProviderSpec;
  status?: { observedGeneration?: number; conditions?: Condition[]; lastHandledReconcileAt?: string };
};

const v1beta3Spec = withRules(
  obj(
    {
      address: str({ maxLength: 2048 }),
      certSecretRef: localRef(),
      channel: str({ maxLength: 2048 }),
      commitStatusExpr: str(),
      interval: duration(),
      proxy: str({ maxLength: 2048, pattern: "^(http|https)://.*$" }),
      proxySecretRef: localRef(),
      secretRef: localRef(),
      serviceAccountName: str(),
      suspend: bool(),
      timeout: duration(false),
      type: str({ enum: [...PROVIDER_TYPES] }),
      username: str({ maxLength: 2048 }),
    },
    ["type"],
  ),
  [
    [
      "self.type == 'github' || self.type == 'gitlab' || self.type == 'gitea' || self.type == 'bitbucketserver' || self.type == 'bitbucket' || self.type == 'azuredevops' || !has(self.commitStatusExpr)",
      "spec.commitStatusExpr is only supported for the 'github', 'gitlab', 'gitea', 'bitbucketserver', 'bitbucket', 'azuredevops' provider types",
    ],
  ],
);

const v1beta2Spec = (() => {
  const s = withoutFields(v1beta3Spec, ["commitStatusExpr", "proxySecretRef", "serviceAccountName"]);
  delete s["x-kubernetes-validations"];
  (s.properties as Record<string, Record<string, unknown>>).type = str({ enum: PROVIDER_TYPES_V1BETA2 });
  return s;
})();

const observedGeneration = { type: "integer", format: "int64" };

export const providerCrd = () =>
  crdFor(SERVED_KINDS.Provider, {
    v1beta3: { spec: v1beta3Spec, status: obj({ conditions: arr(condition()), observedGeneration }) },
    v1beta2: {
      spec: v1beta2Spec,
      status: obj({ conditions: arr(condition()), lastHandledReconcileAt: str(), observedGeneration }),
    },
  });
