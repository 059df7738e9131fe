// helm-controller's action options as helm v4 CLI arguments (facts §1.6 "HC ↔ Helm option mapping").
// Pure: the runner adds the values file and post-renderer (as `extra` flags) and the kubeconfig. Never
// --atomic or --rollback-on-failure: remediation is the controller's own state machine, with its retry
// counts. The positionals (release name, chart, revision) come last, after "--": a name from the spec
// is then never read as a flag, whatever it looks like.
import type { HelmRelease } from "../../../api/helm/helmrelease.js";

/** Where and as whom: the release, its namespace, and the impersonated user if any. */
export interface ReleaseTarget {
  release: string;
  namespace: string;
  asUser?: string;
}

const DEFAULT_TIMEOUT = "5m0s";

const timeoutOf = (hr: HelmRelease, own?: string) => ["--timeout", own ?? hr.spec.timeout ?? DEFAULT_TIMEOUT];

function common(t: ReleaseTarget): string[] {
  return ["-n", t.namespace, ...(t.asUser ? ["--kube-as-user", t.asUser] : [])];
}

/** wait=watcher (kstatus) unless disableWait; wait-for-jobs unless disableWaitForJobs (or no wait). */
function wait(o: { disableWait?: boolean; disableWaitForJobs?: boolean }): string[] {
  if (o.disableWait) return [];
  return ["--wait=watcher", ...(o.disableWaitForJobs ? [] : ["--wait-for-jobs"])];
}

const flag = (on: boolean | undefined, name: string) => (on ? [name] : []);

/** `helm <command> <flags…> -- <positionals…>`. */
const command = (name: string, flags: string[], positionals: string[]) => [name, ...flags, "--", ...positionals];

/** helm install. CRDs are never helm's: the controller applies crds/ per policy first (crds/chart-crds.ts). */
export function installArgs(hr: HelmRelease, t: ReleaseTarget, chart: string, extra: string[] = []): string[] {
  const i = hr.spec.install ?? {};
  const ssa = i.serverSideApply ?? true;
  const flags = [
    ...common(t),
    `--server-side=${ssa}`,
    ...flag(ssa, "--force-conflicts"),
    ...flag(!i.disableTakeOwnership, "--take-ownership"),
    ...wait(i),
    "--skip-crds",
    "--devel",
    // createNamespace is only honoured with a targetNamespace, as helm-controller does.
    ...flag(i.createNamespace && !!hr.spec.targetNamespace, "--create-namespace"),
    ...flag(i.replace, "--replace"),
    ...flag(i.disableHooks, "--no-hooks"),
    ...flag(i.disableOpenAPIValidation, "--disable-openapi-validation"),
    ...flag(i.disableSchemaValidation, "--skip-schema-validation"),
    ...timeoutOf(hr, i.timeout),
    ...extra,
  ];
  return command("install", flags, [t.release, chart]);
}

export function upgradeArgs(hr: HelmRelease, t: ReleaseTarget, chart: string, extra: string[] = []): string[] {
  const u = hr.spec.upgrade ?? {};
  const ssa = u.serverSideApply === "enabled" ? "true" : u.serverSideApply === "disabled" ? "false" : "auto";
  const flags = [
    ...common(t),
    `--server-side=${ssa}`,
    ...flag(ssa !== "false", "--force-conflicts"),
    ...flag(u.force && ssa === "false", "--force-replace"),
    ...flag(!u.disableTakeOwnership, "--take-ownership"),
    ...wait(u),
    // crds/ is applied by the controller per upgrade.crds (helm upgrade never touches it anyway).
    "--skip-crds",
    "--devel",
    ...(u.preserveValues ? ["--reuse-values"] : ["--reset-values"]),
    "--history-max",
    String(hr.spec.maxHistory ?? 5),
    ...flag(u.cleanupOnFail, "--cleanup-on-fail"),
    ...flag(u.disableHooks, "--no-hooks"),
    ...flag(u.disableOpenAPIValidation, "--disable-openapi-validation"),
    ...flag(u.disableSchemaValidation, "--skip-schema-validation"),
    ...timeoutOf(hr, u.timeout),
    ...extra,
  ];
  return command("upgrade", flags, [t.release, chart]);
}

export function rollbackArgs(hr: HelmRelease, t: ReleaseTarget, toVersion: number): string[] {
  const r = hr.spec.rollback ?? {};
  const ssa = r.serverSideApply === "enabled" ? "true" : r.serverSideApply === "disabled" ? "false" : "auto";
  const flags = [
    ...common(t),
    `--server-side=${ssa}`,
    ...flag(ssa !== "false", "--force-conflicts"),
    ...flag(r.force && ssa === "false", "--force-replace"),
    ...wait(r),
    "--history-max",
    String(hr.spec.maxHistory ?? 5),
    ...flag(r.cleanupOnFail, "--cleanup-on-fail"),
    ...flag(r.disableHooks, "--no-hooks"),
    ...timeoutOf(hr, r.timeout),
  ];
  return command("rollback", flags, [t.release, String(toVersion)]);
}

export function uninstallArgs(hr: HelmRelease, t: ReleaseTarget): string[] {
  const u = hr.spec.uninstall ?? {};
  const flags = [
    ...common(t),
    "--cascade",
    u.deletionPropagation ?? "background",
    "--ignore-not-found",
    ...(u.disableWait ? [] : ["--wait=watcher"]),
    ...flag(u.keepHistory, "--keep-history"),
    ...flag(u.disableHooks, "--no-hooks"),
    ...timeoutOf(hr, u.timeout),
  ];
  return command("uninstall", flags, [t.release]);
}

export function testArgs(hr: HelmRelease, t: ReleaseTarget): string[] {
  const filters = (hr.spec.test?.filters ?? []).map((f) => `${f.exclude ? "!" : ""}name=${f.name}`);
  const flags = [...common(t), ...filters.flatMap((f) => ["--filter", f]), ...timeoutOf(hr, hr.spec.test?.timeout)];
  return command("test", flags, [t.release]);
}
