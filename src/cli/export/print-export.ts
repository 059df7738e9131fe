// What `flux … --export` and `flux export` print for one object (cmd/flux/export.go printExport and
// resourceToString): `---`, then sigs.k8s.io/yaml with the empty creationTimestamp and status removed,
// trimmed. Secrets come from flux's manifestgen instead and keep their trailing newline, so they end in
// a blank line — except `create secret tls`, which flux prints without the extra newline (the goldens
// in cmd/flux/testdata/create_secret show both).
import { sigsYaml } from "./sigs-yaml.js";

const stripEmpty = (yaml: string) => yaml.replace("  creationTimestamp: null\n", "").replace("status: {}\n", "");

export function exportYaml(obj: unknown): string {
  return `---\n${stripEmpty(sigsYaml(obj)).trim()}\n`;
}

export function exportSecretYaml(obj: unknown, blankLineAfter = true): string {
  return `---\n${stripEmpty(sigsYaml(obj))}${blankLineAfter ? "\n" : ""}`;
}
