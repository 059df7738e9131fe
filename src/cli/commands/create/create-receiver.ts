// `create receiver` (flux cmd/flux/create_receiver.go): a Receiver from --type, --secret-ref, --event
// and --resource Kind/name, checked in flux's order and words; applied and waited for, then the
// webhook path printed as flux prints it. --type takes every type flux's CLI takes: exported YAML is
// for any Flux, and an applied Receiver of a type flotilla does not verify is refused by its
// controller with a Stalled condition naming it (what the wait then prints).
import { Command, Option } from "commander";
import { RECEIVER_TYPES } from "../../../api/notification/receiver.js";
import { UsageError } from "../../errors.js";
import { metadata } from "./build-sources.js";
import { type CreateFlags, exportOrApply, metaOf, withCreateFlags } from "./create-common.js";
import { collectSlice } from "./flux-refs.js";
import type { Handled } from "../operate/reconcile-wait.js";

/** flux's internal/flags supportedReceiverTypes: the API's types, in its order, without generic-oidc. */
export const CLI_RECEIVER_TYPES: readonly string[] = RECEIVER_TYPES.filter((t) => t !== "generic-oidc");

interface ReceiverFlags extends CreateFlags {
  type?: string;
  secretRef?: string;
  event: string[];
  resource: string[];
}

/** flags.ReceiverType.Set, in pflag's words. */
function receiverType(value: string): string {
  const invalid = (why: string) => new UsageError(`invalid argument "${value}" for "--type" flag: ${why}`);
  if (!value.trim()) throw invalid("no receiver type given, please specify the receiver type");
  if (!CLI_RECEIVER_TYPES.includes(value))
    throw invalid(`receiver type '${value}' is not supported, must be one of: ${CLI_RECEIVER_TYPES.join(", ")}`);
  return value;
}

/** The Receiver flux builds (spec fields in its typed struct: empty events and suspend=false vanish). */
export function receiver(
  m: ReturnType<typeof metaOf>,
  f: Pick<ReceiverFlags, "type" | "secretRef" | "event" | "resource">,
) {
  if (!f.type) throw new UsageError("Receiver type is required");
  if (!f.secretRef) throw new UsageError("secret ref is required");
  const resources = f.resource.map((r) => {
    const parts = r.split("/");
    const [kind, name] = parts.length === 2 ? [parts[0]!, parts[1]!] : ["", r];
    if (!kind) throw new UsageError(`invalid event source '${r}', must be in format <kind>/<name>`);
    return { kind, name };
  });
  if (!resources.length) throw new UsageError("atleast one resource is required");
  return {
    apiVersion: "notification.toolkit.fluxcd.io/v1",
    kind: "Receiver",
    metadata: metadata(m),
    spec: {
      type: f.type,
      ...(f.event.length ? { events: f.event } : {}),
      resources,
      secretRef: { name: f.secretRef },
    },
  };
}

export function receiverCommand(): Command {
  const cmd = new Command("receiver")
    .description("Create or update a Receiver resource")
    .argument("[name]")
    .addOption(new Option("--type <type>", "the receiver type").argParser(receiverType))
    .option("--secret-ref <name>", "")
    .addOption(new Option("--event <event>", "also accepts comma-separated values").argParser(collectSlice).default([]))
    .addOption(
      new Option("--resource <kind/name>", "also accepts comma-separated values").argParser(collectSlice).default([]),
    );
  withCreateFlags(
    cmd,
    "  flotilla create receiver github-receiver --type github --event ping --event push --secret-ref webhook-token \\\n" +
      "    --resource GitRepository/webapp --resource HelmRepository/webapp",
  );
  return cmd.action(async (name: string | undefined, f: ReceiverFlags) => {
    const m = metaOf(name, f);
    const obj = receiver(m, f);
    await exportOrApply(f, obj, "Receiver", {
      ready: (live: Handled) => [
        `Receiver ${m.name} is ready`,
        `generated webhook URL ${(live.status as { webhookPath?: string } | undefined)?.webhookPath ?? ""}`,
      ],
    });
  });
}
