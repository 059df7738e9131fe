// `create tenant` and `create secret git|helm|tls` (flux cmd/flux/create_tenant.go,
// create_secret_*.go). Secret values go to stdout only with --export (the user asked for them there);
// applied, only the name and namespace are printed.
import { Command, Option } from "commander";
import type { KubeObject } from "../../../api/meta/object.js";
import { clusterOf } from "../../cluster-flags.js";
import { UsageError } from "../../errors.js";
import { exportSecretYaml, exportYaml } from "../../export/print-export.js";
import { step, success } from "../../output.js";
import { type GitSecretArgs, gitSecret, helmSecret, tlsOnlySecret } from "./build-secrets.js";
import { tenantObjects } from "./build-tenant.js";
import { FIELD_MANAGER } from "./create-apply.js";
import { type CreateFlags, metaOf, withCreateFlags } from "./create-common.js";
import { collectSlice, parseLabels } from "./flux-refs.js";

interface TenantFlags extends CreateFlags {
  withNamespace: string[];
  clusterRole: string;
  withServiceAccount?: string;
  skipNamespace?: boolean;
}

/** A RoleBinding's roleRef cannot change: flux deletes and recreates it when it differs. */
async function applyTenantObject(f: CreateFlags, obj: Record<string, unknown>): Promise<void> {
  const cluster = clusterOf(f);
  const o = obj as unknown as KubeObject;
  const what = `${o.kind.toLowerCase()} ${o.metadata.name}`;
  step(`applying ${what}`);
  const live = await cluster.get(o);
  if (live && o.kind === "RoleBinding" && JSON.stringify(live.roleRef) !== JSON.stringify(obj.roleRef))
    await cluster.delete(o);
  await cluster.apply(o, FIELD_MANAGER, { force: true });
  success(`${what} ${live ? "updated" : "created"}`);
}

function tenantCommand(): Command {
  const cmd = new Command("tenant")
    .description("Create or update a tenant: namespaces, a service account and a role binding per namespace")
    .argument("[name]")
    .addOption(
      new Option("--with-namespace <namespace>", "namespace belonging to this tenant (repeatable, or comma-separated)")
        .argParser(collectSlice)
        .default([]),
    )
    .option("--cluster-role <role>", "cluster role of the tenant role binding", "cluster-admin")
    .option("--with-service-account <name>", "service account belonging to this tenant (defaults to the tenant name)")
    .option("--skip-namespace", "skip namespace creation");
  withCreateFlags(
    cmd,
    "  flotilla create tenant dev-team --with-namespace=frontend --with-namespace=backend --export\n" +
      "  flotilla create tenant dev-team --with-namespace=apps --cluster-role=tenant-reconciler --export > rbac.yaml",
  );
  return cmd.action(async (name: string | undefined, f: TenantFlags) => {
    if (!name) throw new UsageError("name is required");
    if (!f.clusterRole) throw new UsageError("cluster-role is required");
    const objects = tenantObjects(name, {
      namespaces: f.withNamespace,
      clusterRole: f.clusterRole,
      serviceAccount: f.withServiceAccount,
      skipNamespace: !!f.skipNamespace,
      labels: parseLabels(f.label),
    });
    if (f.export) {
      process.stdout.write(objects.map(exportYaml).join(""));
      return;
    }
    for (const obj of objects) await applyTenantObject(f, obj);
  });
}

// The builder's arguments as flags: all optional, numbers still text until parsed.
interface SecretFlags extends CreateFlags, Partial<Omit<GitSecretArgs, "sshRsaBits">> {
  sshRsaBits?: string;
  tlsCrtFile?: string;
  tlsKeyFile?: string;
}

function secretVerb(
  verb: string,
  description: string,
  example: string,
  options: Option[],
  build: (name: string | undefined, f: SecretFlags) => Record<string, unknown> | Promise<Record<string, unknown>>,
): Command {
  const cmd = new Command(verb).description(description).argument("[name]");
  for (const o of options) cmd.addOption(o);
  withCreateFlags(cmd, example);
  return cmd.action(async (name: string | undefined, f: SecretFlags) => {
    const obj = await build(name, f);
    if (f.export) {
      process.stdout.write(exportSecretYaml(obj, verb !== "tls"));
      return;
    }
    const o = obj as unknown as KubeObject;
    await clusterOf(f).apply(o, FIELD_MANAGER, { force: true });
    step(`${verb} secret '${o.metadata.name}' created in '${o.metadata.namespace}' namespace`);
  });
}

const opt = (flags: string, description: string) => new Option(flags, description);

/** flux's flags for a key it generates (cmd/flux/create_secret_git.go). */
export const sshKeyOptions = () => [
  new Option("--ssh-key-algorithm <algorithm>", "SSH public key algorithm")
    .choices(["rsa", "ecdsa", "ed25519"])
    .default("ecdsa"),
  new Option("--ssh-rsa-bits <bits>", "SSH RSA public key bit size (multiplies of 8, min 1024, max 8192)").default(
    "2048",
  ),
  new Option("--ssh-ecdsa-curve <curve>", "SSH ECDSA public key curve")
    .choices(["p256", "p384", "p521"])
    .default("p384"),
];

function secretCommands(): Command {
  const tlsFiles = [
    opt("--tls-crt-file <path>", "TLS authentication cert file path"),
    opt("--tls-key-file <path>", "TLS authentication key file path"),
    opt("--ca-crt-file <path>", "TLS authentication CA file path"),
  ];
  return new Command("secret")
    .description("Create or update Kubernetes secrets for sources")
    .addCommand(
      secretVerb(
        "git",
        "Create or update a Kubernetes secret for Git authentication",
        "  flotilla create secret git podinfo-auth --url=https://github.com/stefanprodan/podinfo --username=user --password=token --export",
        [
          opt("--url <url>", "git address, e.g. https://host/org/repository"),
          opt("-u, --username <username>", "basic authentication username"),
          opt("-p, --password <password>", "basic authentication password"),
          opt("--bearer-token <token>", "bearer authentication token"),
          opt("--ca-crt-file <path>", "path to TLS CA certificate file used for validating self-signed certificates"),
          opt(
            "--private-key-file <path>",
            "path to a passwordless private key file used for authenticating to the Git SSH server",
          ),
        ],
        (name, f) =>
          gitSecret(metaOf(name, f), {
            ...f,
            url: f.url ?? "",
            sshRsaBits: f.sshRsaBits ? Number(f.sshRsaBits) : undefined,
          }),
      ),
    )
    .addCommand(
      secretVerb(
        "helm",
        "Create or update a Kubernetes secret for Helm repository authentication",
        "  flotilla create secret helm repo-auth --namespace=my-namespace --username=my-username --password=my-password --export",
        [
          opt("-u, --username <username>", "basic authentication username"),
          opt("-p, --password <password>", "basic authentication password"),
          ...tlsFiles,
        ],
        (name, f) => helmSecret(metaOf(name, f), f),
      ),
    )
    .addCommand(
      secretVerb(
        "tls",
        "Create or update a Kubernetes secret with TLS certificates",
        "  flotilla create secret tls certs --namespace=my-namespace --tls-crt-file=./client.crt --tls-key-file=./client.key --ca-crt-file=./ca.crt --export",
        tlsFiles.map((o) => opt(o.flags, o.description)),
        (name, f) => tlsOnlySecret(metaOf(name, f), f),
      ),
    );
}

export { secretCommands, tenantCommand };
