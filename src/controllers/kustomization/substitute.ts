// postBuild variable substitution, bash style: `${var}`, `${var:=default}`, `${var:-default}`,
// `$${var}` for a literal. Applied to each object's YAML (so `replicas: ${N}` becomes a number),
// skipped for objects annotated `kustomize.toolkit.fluxcd.io/substitute: disabled`.
import { FlotillaError } from "../../util/errors.js";
import { objectId } from "../../kube/object.js";
import { SUBSTITUTE_ANNOTATION } from "../../api/meta/annotations.js";
import type { KubeObject } from "../../api/meta/object.js";
import { type Json, toYaml } from "../../kustomize/yaml/emit.js";
import { parseYamlDocuments } from "../../kustomize/yaml/parse.js";

const VAR = /\$(\$)?\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[=-])([^}]*))?\}/g;

export class SubstitutionError extends FlotillaError {
  override name = "SubstitutionError";
}

function substituteText(text: string, vars: Record<string, string>, strict = false): string {
  return text.replace(
    VAR,
    (whole, escaped: string | undefined, name: string, op: string | undefined, fallback: string | undefined) => {
      if (escaped) return whole.slice(1);
      const value = vars[name];
      if (value !== undefined && !(op?.startsWith(":") && value === "")) return value;
      if (op !== undefined) return fallback ?? "";
      if (strict) throw new SubstitutionError(`variable not set (strict mode): "${name}"`);
      return "";
    },
  );
}

export interface SubstituteOptions {
  /** An unset `${var}` without default fails the build. */
  strict?: boolean;
  /** Substitute even when no variable is defined (Flux's substituteStrategy: Always). */
  always?: boolean;
}

export function substituteObjects(
  objects: KubeObject[],
  vars: Record<string, string>,
  { strict = false, always = false }: SubstituteOptions = {},
): KubeObject[] {
  if (Object.keys(vars).length === 0 && !strict && !always) return objects;
  return objects.map((o) => {
    if (o.metadata.annotations?.[SUBSTITUTE_ANNOTATION]?.toLowerCase() === "disabled") return o;
    let text: string;
    try {
      text = substituteText(toYaml(o as unknown as Json), vars, strict);
    } catch (err) {
      throw new SubstitutionError(`postBuild substitution in ${objectId(o)}: ${(err as Error).message}`);
    }
    return parseYamlDocuments(text, `${o.kind}/${o.metadata.name}`)[0]!.value as unknown as KubeObject;
  });
}
