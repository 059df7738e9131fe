// `flotilla check [--pre]`: is this cluster ready for flotilla, and is flotilla working in it? As flux
// check prints it — `► checking prerequisites`, `✔ Kubernetes 1.35.0 >=1.33.0-0` — then the CRDs (each
// established, with its storage version) and the controller. flux looks for controller Deployments; a
// flotilla controller may be a process beside the cluster (a local fleet), so liveness is read where
// both kinds leave it: the leader-election Lease, renewed within its lease duration.
import { Command } from "commander";
import { servedCrds } from "../../api/flux-crds.js";
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import { NotFoundError } from "../../kube/errors.js";
import { addClusterFlags, clusterOf, type ClusterFlags } from "../cluster-flags.js";
import { failure, step, success } from "../output.js";
import { humanDuration } from "../human-duration.js";
import { FlotillaError } from "../../util/errors.js";
import { LEADER_ELECTION_ID } from "../../runtime/leader-election.js";

/** A check that did not pass: the ✗ lines above say which. */
class CheckFailed extends FlotillaError {
  override name = "CheckFailed";
}

const MIN_KUBERNETES = [1, 33];
const LEASE = LEADER_ELECTION_ID;

interface Crd {
  metadata: { name: string };
  status?: { storedVersions?: string[]; conditions?: { type: string; status: string }[] };
}
interface Lease {
  metadata: { name: string };
  spec?: { holderIdentity?: string; renewTime?: string; leaseDurationSeconds?: number };
}

export function checkCommand(): Command {
  const cmd = new Command("check")
    .description("Check requirements and installation")
    .option("--pre", "only run pre-installation checks")
    .addHelpText("after", "\nExamples:\n  flotilla check --pre\n  flotilla check -n flux-system");
  addClusterFlags(cmd);
  return cmd.action(async (f: ClusterFlags & { pre?: boolean }) => {
    const cluster = clusterOf(f);
    let ok = true;
    step("checking prerequisites");
    const v = await cluster.client.get<{ gitVersion: string }>("/version");
    const version = v.gitVersion.replace(/^v/, "").replace(/[-+].*$/, "");
    const [major, minor] = version.split(".").map(Number) as [number, number];
    const range = `>=${MIN_KUBERNETES.join(".")}.0-0`;
    if (major > MIN_KUBERNETES[0]! || (major === MIN_KUBERNETES[0] && minor >= MIN_KUBERNETES[1]!))
      success(`Kubernetes ${version} ${range}`);
    else {
      failure(`Kubernetes version ${version} does not match ${range}`);
      ok = false;
    }
    if (!ok) throw new CheckFailed("prerequisites checks failed");
    success("prerequisites checks passed");
    if (f.pre) return;

    step("checking controllers");
    // The unsharded controller's Lease and each shard's (suffixed with its selector's hash, as Flux's).
    const leases = (await cluster.client.listAll<Lease>(pathOf(USED_KINDS.Lease, f.namespace))).items
      .filter((l) => l.metadata.name === LEASE || new RegExp(`^${LEASE}-[0-9a-f]{8}$`).test(l.metadata.name))
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    for (const lease of leases) {
      const who = leases.length > 1 ? `flotilla controller (lease ${lease.metadata.name})` : "flotilla controller";
      const renewed = lease.spec?.renewTime ? Date.now() - new Date(lease.spec.renewTime).getTime() : Infinity;
      const limit = (lease.spec?.leaseDurationSeconds ?? 35) * 1000;
      if (renewed <= limit)
        success(`${who}: leader ${lease.spec?.holderIdentity ?? "?"} renewed ${humanDuration(renewed)} ago`);
      else {
        failure(
          `${who}: the leader lease in '${f.namespace}' was last renewed ${Number.isFinite(renewed) ? `${humanDuration(renewed)} ago` : "never"}: is the controller running?`,
        );
        ok = false;
      }
    }
    if (!leases.length) {
      failure(
        `no flotilla controller has run in the '${f.namespace}' namespace (no lease ${LEASE}): run 'flotilla install' or 'flotilla controller'`,
      );
      ok = false;
    }

    step("checking crds");
    for (const want of servedCrds()) {
      const name = want.metadata.name;
      try {
        const crd = await cluster.client.get<Crd>(pathOf(USED_KINDS.CustomResourceDefinition, undefined, name));
        const established = crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True");
        const stored = crd.status?.storedVersions ?? [];
        if (established && stored.length) success(`${name}/${stored.at(-1)}`);
        else {
          failure(established ? `no stored versions for ${name}` : `${name} is not established`);
          ok = false;
        }
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        failure(`${name} is missing: run 'flotilla install' (or the controller with --install-crds)`);
        ok = false;
      }
    }
    if (!ok) throw new CheckFailed("check failed");
    success("all checks passed");
  });
}
