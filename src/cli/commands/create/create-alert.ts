// `create alert` and `create alert-provider` (flux cmd/flux/create_alert.go, create_alertprovider.go): an Alert
// from --provider-ref, --event-severity and --event-source Kind/name[.namespace], a Provider from --type,
// --channel, --username, --address and --secret-ref — notification.toolkit.fluxcd.io/v1beta3 as flux writes
// them, checked in flux's order and words (flux takes any --type and --event-severity; so does the export, and
// the controllers say on the object's status what they refuse). Applied and waited for until Ready.
import { Command } from "commander";
import { UsageError } from "../../errors.js";
import { metadata } from "./build-sources.js";
import { type CreateFlags, exportOrApply, metaOf, withCreateFlags } from "./create-common.js";
import { collectSlice, parseKindNameNamespace } from "./flux-refs.js";

const API_VERSION = "notification.toolkit.fluxcd.io/v1beta3";

interface AlertFlags extends CreateFlags {
  providerRef?: string;
  eventSeverity?: string;
  eventSource: string[];
}

interface ProviderFlags extends CreateFlags {
  type?: string;
  channel?: string;
  username?: string;
  address?: string;
  secretRef?: string;
}

/** The Alert flux builds (its typed struct: an empty severity and suspend=false vanish). */
export function alert(
  m: ReturnType<typeof metaOf>,
  f: Pick<AlertFlags, "providerRef" | "eventSeverity" | "eventSource">,
) {
  if (!f.providerRef) throw new UsageError("provider ref is required");
  const eventSources = f.eventSource.map((s) => {
    const { kind, name, namespace } = parseKindNameNamespace(s);
    if (!kind) throw new UsageError(`invalid event source '${s}', must be in format <kind>/<name>`);
    return { kind, name, ...(namespace ? { namespace } : {}) };
  });
  if (!eventSources.length) throw new UsageError("at least one event source is required");
  return {
    apiVersion: API_VERSION,
    kind: "Alert",
    metadata: metadata(m),
    spec: {
      ...(f.eventSeverity ? { eventSeverity: f.eventSeverity } : {}),
      eventSources,
      providerRef: { name: f.providerRef },
    },
  };
}

/** The Provider flux builds (empty strings vanish, as its struct's omitempty fields do). */
export function provider(m: ReturnType<typeof metaOf>, f: Omit<ProviderFlags, keyof CreateFlags>) {
  if (!f.type) throw new UsageError("Provider type is required");
  return {
    apiVersion: API_VERSION,
    kind: "Provider",
    metadata: metadata(m),
    spec: {
      ...(f.address ? { address: f.address } : {}),
      ...(f.channel ? { channel: f.channel } : {}),
      ...(f.secretRef ? { secretRef: { name: f.secretRef } } : {}),
      type: f.type,
      ...(f.username ? { username: f.username } : {}),
    },
  };
}

export function alertCommands(): Command[] {
  const alertCmd = new Command("alert")
    .description("Create or update a Alert resource")
    .argument("[name]")
    .option("--provider-ref <name>", "reference to provider")
    .option("--event-severity <severity>", "severity of events to send alerts for")
    .option(
      "--event-source <kind/name>",
      "sources that should generate alerts (<kind>/<name>), also accepts comma-separated values",
      collectSlice,
      [],
    );
  withCreateFlags(
    alertCmd,
    "  flotilla create alert --event-severity info --event-source Kustomization/flux-system --provider-ref slack flux-system",
  );
  alertCmd.action(async (name: string | undefined, f: AlertFlags) => {
    const m = metaOf(name, f);
    await exportOrApply(f, alert(m, f), "Alert", { ready: () => [`Alert ${m.name} is ready`] });
  });

  const providerCmd = new Command("alert-provider")
    .description("Create or update a Provider resource")
    .argument("[name]")
    .option("--type <type>", "type of provider")
    .option("--channel <channel>", "channel to send messages to in the case of a chat provider")
    .option("--username <name>", "bot username used by the provider")
    .option("--address <url>", "path to either the git repository, chat provider or webhook")
    .option("--secret-ref <name>", "name of secret containing authentication token");
  withCreateFlags(
    providerCmd,
    "  flotilla create alert-provider slack --type slack --channel general \\\n" +
      "    --address https://hooks.slack.com/services/YOUR/SLACK/WEBHOOK --secret-ref webhook-url",
  );
  providerCmd.action(async (name: string | undefined, f: ProviderFlags) => {
    const m = metaOf(name, f);
    await exportOrApply(f, provider(m, f), "Provider", { ready: () => [`Provider ${m.name} is ready`] });
  });
  return [alertCmd, providerCmd];
}
