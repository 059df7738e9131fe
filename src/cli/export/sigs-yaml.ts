// YAML exactly as sigs.k8s.io/yaml.Marshal prints a Kubernetes object — what `flux … --export` and
// `kubectl -o yaml` print: the JSON form of the object through go-yaml v2. kustomize's emitter
// (kustomize/yaml/emit.ts) already prints go-yaml v2 byte for byte (key order, YAML 1.1 quoting,
// literal blocks, folding at 80); test/parity/sigs-yaml.test.ts holds it against kubectl's printer.
import { type Json, toYaml } from "../../kustomize/yaml/emit.js";

/** sigs.k8s.io/yaml.Marshal of a JSON value (ends with a newline). */
export function sigsYaml(value: unknown): string {
  // Through JSON first, as sigs.k8s.io/yaml does: undefined fields vanish, numbers are JSON numbers.
  return toYaml(JSON.parse(JSON.stringify(value)) as Json);
}
