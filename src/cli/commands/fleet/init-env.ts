// `flotilla fleet init-env ENV`: the environment's directory in the fleet repository and, with --url,
// its bootstrap on the management cluster — the namespace ENV, a GitRepository "fleet" for the
// repository and a Kustomization ENV applying environments/ENV (the multicluster-gitops "init an
// environment", without deleting anything: a copied branch keeps its files until removed by their verb).
import { apiVersionOf, SERVED_KINDS } from "../../../api/kinds.js";
import type { KubeObject } from "../../../api/meta/object.js";
import { envDir, FLEET_SOURCE } from "../../../fleet/repository/layout.js";
import { initEnv } from "../../../fleet/repository/procedures.js";
import { success } from "../../output.js";
import { FIELD_MANAGER } from "../create/create-apply.js";
import { type FleetFlags, finish, fleetVerb, managementOf, treeOf } from "./fleet-common.js";

export function bootstrapObjects(env: string, url: string, branch: string): KubeObject[] {
  return [
    { apiVersion: "v1", kind: "Namespace", metadata: { name: env } },
    {
      apiVersion: apiVersionOf(SERVED_KINDS.GitRepository),
      kind: "GitRepository",
      metadata: { name: FLEET_SOURCE, namespace: env },
      spec: { interval: "1m", url, ref: { branch } },
    },
    {
      apiVersion: apiVersionOf(SERVED_KINDS.Kustomization),
      kind: "Kustomization",
      metadata: { name: env, namespace: env },
      spec: {
        interval: "5m",
        retryInterval: "30s",
        sourceRef: { kind: "GitRepository", name: FLEET_SOURCE },
        path: `./${envDir(env)}`,
        prune: true,
      },
    },
  ] as KubeObject[];
}

export function initEnvCommand() {
  return fleetVerb(
    "init-env",
    "Start an environment in the fleet repository (and, with --url, on the management cluster)",
    "flotilla fleet init-env dev --repo ./fleet-infra --url https://git.example.com/fleet-infra.git --branch main",
    false,
  )
    .argument("<env>")
    .option("--url <url>", "the fleet repository's URL: also bootstrap the environment on the management cluster")
    .option("--branch <branch>", "the branch the environment is read from", "main")
    .action(async (envName: string, flags: Omit<FleetFlags, "env"> & { url?: string; branch: string }) => {
      const f = { ...flags, env: envName };
      const tree = treeOf(f);
      initEnv(tree, f.env);
      if (f.url) {
        const cluster = managementOf(f);
        for (const obj of bootstrapObjects(f.env, f.url, f.branch))
          await cluster.apply(obj, FIELD_MANAGER, { force: true });
        success(
          `environment ${f.env} bootstrapped: GitRepository ${f.env}/${FLEET_SOURCE} and Kustomization ${f.env}/${f.env}`,
        );
      }
      finish(tree, `commit and push: environment ${f.env} is read from ${envDir(f.env)}`);
    });
}
