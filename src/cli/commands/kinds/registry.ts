// The one table of the kinds the CLI's verbs act on: for each, its entry in the API's table (API paths
// come from it: pathOf), how `get` names it and prints its columns, and how reconcile, delete, suspend
// and resume name it and word their lines. The verbs' sub-commands are built from it (kind-verbs.ts),
// so a new kind is one row here.
import { type KindEntry, SERVED_KINDS } from "../../../api/kinds.js";
import { GET_KINDS, type GetKind } from "../get/get-kinds.js";
import { OPERATE_KINDS, type OperateKind } from "../operate/operate-kinds.js";

/** A kind's sub-command: ["sources", "git"] is `get sources git`; one word is directly under the verb. */
export interface KindVerb {
  path: string[];
  aliases: string[];
}

export interface CliKind {
  entry: KindEntry;
  get?: KindVerb & { columns: GetKind; example: string };
  /** reconcile, delete, suspend, resume. */
  operate?: KindVerb & { wording: OperateKind };
}

const source = (name: string): string[] => ["source", name];

// In the order the verbs list them.
export const CLI_KINDS: CliKind[] = [
  {
    entry: SERVED_KINDS.GitRepository,
    get: {
      path: ["sources", "git"],
      aliases: [],
      columns: GET_KINDS.GitRepository,
      example: "  flotilla get sources git --all-namespaces",
    },
    operate: { path: source("git"), aliases: [], wording: OPERATE_KINDS.GIT },
  },
  {
    entry: SERVED_KINDS.HelmRepository,
    get: {
      path: ["sources", "helm"],
      aliases: [],
      columns: GET_KINDS.HelmRepository,
      example: "  flotilla get sources helm -n flux-system",
    },
    operate: { path: source("helm"), aliases: [], wording: OPERATE_KINDS.HELM_REPOSITORY },
  },
  {
    entry: SERVED_KINDS.HelmChart,
    get: {
      path: ["sources", "chart"],
      aliases: [],
      columns: GET_KINDS.HelmChart,
      example: "  flotilla get sources chart -A",
    },
    operate: { path: source("chart"), aliases: [], wording: OPERATE_KINDS.HELM_CHART },
  },
  {
    entry: SERVED_KINDS.OCIRepository,
    get: {
      path: ["sources", "oci"],
      aliases: [],
      columns: GET_KINDS.OCIRepository,
      example: "  flotilla get sources oci -A",
    },
    operate: { path: source("oci"), aliases: [], wording: OPERATE_KINDS.OCI },
  },
  {
    entry: SERVED_KINDS.Cluster,
    get: {
      path: ["clusters"],
      aliases: ["cluster"],
      columns: GET_KINDS.Cluster,
      example: "  flotilla get clusters -A",
    },
  },
  {
    entry: SERVED_KINDS.FleetKustomization,
    get: {
      path: ["fleetkustomizations"],
      aliases: ["fleetkustomization", "fks"],
      columns: GET_KINDS.FleetKustomization,
      example: "  flotilla get fks -n fleet",
    },
  },
  {
    entry: SERVED_KINDS.FleetHelmRelease,
    get: {
      path: ["fleethelmreleases"],
      aliases: ["fleethelmrelease", "fhr"],
      columns: GET_KINDS.FleetHelmRelease,
      example: "  flotilla get fhr -n tenants",
    },
  },
  {
    entry: SERVED_KINDS.Kustomization,
    get: {
      path: ["kustomizations"],
      aliases: ["kustomization", "ks"],
      columns: GET_KINDS.Kustomization,
      example: "  flotilla get ks --status-selector ready=false -A",
    },
    operate: { path: ["kustomization"], aliases: ["ks"], wording: OPERATE_KINDS.KUSTOMIZATION },
  },
  {
    entry: SERVED_KINDS.HelmRelease,
    get: {
      path: ["helmreleases"],
      aliases: ["helmrelease", "hr"],
      columns: GET_KINDS.HelmRelease,
      example: "  flotilla get hr --show-source -n tenants",
    },
    operate: { path: ["helmrelease"], aliases: ["hr"], wording: OPERATE_KINDS.HELM_RELEASE },
  },
  {
    entry: SERVED_KINDS.Receiver,
    get: {
      path: ["receivers"],
      aliases: ["receiver"],
      columns: GET_KINDS.Receiver,
      example: "  flotilla get receivers -A",
    },
    operate: { path: ["receiver"], aliases: [], wording: OPERATE_KINDS.RECEIVER },
  },
  {
    entry: SERVED_KINDS.Alert,
    get: { path: ["alerts"], aliases: ["alert"], columns: GET_KINDS.Alert, example: "  flotilla get alerts -A" },
    operate: { path: ["alert"], aliases: [], wording: OPERATE_KINDS.ALERT },
  },
  {
    entry: SERVED_KINDS.Provider,
    get: {
      path: ["alert-providers"],
      aliases: ["alert-provider"],
      columns: GET_KINDS.Provider,
      example: "  flotilla get alert-providers -n flux-system",
    },
    operate: { path: ["alert-provider"], aliases: [], wording: OPERATE_KINDS.PROVIDER },
  },
];

// Each facet's kind is the row's kind: a row can't name one kind and print another's columns.
for (const k of CLI_KINDS)
  if ((k.get && k.get.columns.entry !== k.entry) || (k.operate && k.operate.wording.entry !== k.entry))
    throw new Error(`CLI_KINDS: the ${k.entry.kind} row mixes kinds`);
