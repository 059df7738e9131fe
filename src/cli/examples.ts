// `--help` shows an example on every verb. Verbs built in loops (suspend, resume, delete) or before the
// flux verbs existed get theirs here, by command path; the others carry theirs where they are defined.
// test/unit/cli/help-examples.test.ts holds every leaf verb to it.
import type { Command } from "commander";

const EXAMPLES: Record<string, string> = {
  "local up": "flotilla local up --tenants 2 --dir /tmp/fleet",
  "local status": "flotilla local status --dir /tmp/fleet",
  "local add-tenant": "flotilla local add-tenant acme --dir /tmp/fleet",
  "local restart": "flotilla local restart --dir /tmp/fleet --component tenant1",
  "local down": "flotilla local down --dir /tmp/fleet",
  "kustomize build": "flotilla kustomize build ./clusters/staging > staging.yaml",
  controller: "flotilla controller --kubeconfig /tmp/fleet/kubeconfigs/management.kubeconfig --install-crds",
  install: "flotilla install --export > flotilla.yaml\n  flotilla install --kubeconfig ~/.kube/config --multi-tenant",
  demo: "flotilla demo --dir /tmp/flotilla-demo",
  "get sources all": "flotilla get sources all -A",
  "get all": "flotilla get all -A --status-selector ready=false",
  "approve fleetkustomization": "flotilla approve fleetkustomization podinfo -n fleet --stage production",
  "approve fleethelmrelease": "flotilla approve fleethelmrelease cert-manager -n fleet",
  "approve resourceset": "flotilla approve resourceset apps -n fleet --stage production",
};

const VERB_EXAMPLES: Record<string, (kind: string) => string> = {
  suspend: (k) => `flotilla suspend ${k} podinfo -n apps\n  flotilla suspend ${k} --all -n apps`,
  resume: (k) => `flotilla resume ${k} podinfo -n apps\n  flotilla resume ${k} --all --wait=false`,
  delete: (k) => `flotilla delete ${k} podinfo -n apps --silent`,
};

// Command is an EventEmitter at run time; its typings do not say so.
const hasExample = (c: Command) =>
  (c as unknown as { listenerCount(e: string): number }).listenerCount("afterHelp") > 0;

export function addMissingExamples(program: Command): void {
  const walk = (c: Command, path: string[]) => {
    for (const s of c.commands) walk(s, [...path, s.name()]);
    if (c.commands.length || hasExample(c) || !path.length) return;
    const key = path.join(" ");
    const example = EXAMPLES[key] ?? VERB_EXAMPLES[path[0]!]?.(path.slice(1).join(" "));
    if (example) c.addHelpText("after", `\nExamples:\n  ${example}`);
  };
  walk(program, []);
}
