// images: rewrite container images by name — newName, newTag, digest (digest wins over tag).
import type { ResMap } from "../res-map.js";
import type { Image } from "../kustomization-file.js";
import type { JsonObject } from "../resource.js";
import { applySpecs, type FieldSpec } from "./field-spec.js";

/** Splits an image into name, tag and digest, looking for ":" and "@" only after the first "/". */
function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  const slash = image.indexOf("/");
  const head = slash >= 0 ? image.slice(0, slash + 1) : "";
  let rest = slash >= 0 ? image.slice(slash + 1) : image;
  let digest: string | undefined;
  const at = rest.indexOf("@");
  if (at >= 0) [rest, digest] = [rest.slice(0, at), rest.slice(at + 1)];
  let tag: string | undefined;
  const colon = rest.indexOf(":");
  if (colon >= 0) [rest, tag] = [rest.slice(0, colon), rest.slice(colon + 1)];
  return { name: head + rest, tag, digest };
}

/** kustomize matches `name` as a regular expression on the whole image (with any tag and digest). */
function matches(current: string, name: string): boolean {
  try {
    return new RegExp(`^${name}(:[a-zA-Z0-9_.{}-]*)?(@[a-zA-Z0-9]+([.+_-][a-zA-Z0-9]+)*:[a-zA-Z0-9_.{}-]*)?$`).test(
      current,
    );
  } catch {
    return false;
  }
}

function rewrite(current: string, image: Image): string | undefined {
  if (!matches(current, image.name)) return undefined;
  const parts = splitImage(current);
  const name = image.newName ?? parts.name;
  if (image.newTag && image.digest) return `${name}:${image.newTag}@${image.digest}`;
  if (image.newTag) return `${name}:${image.newTag}`;
  if (image.digest) return `${name}@${image.digest}`;
  if (image.tagSuffix) return `${name}:${parts.tag ?? ""}${image.tagSuffix}`;
  return `${name}${parts.tag !== undefined ? `:${parts.tag}` : ""}${parts.digest ? `@${parts.digest}` : ""}`;
}

function walkImages(node: unknown, images: Image[]): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) walkImages(item, images);
    return;
  }
  const obj = node as JsonObject;
  for (const field of ["containers", "initContainers", "ephemeralContainers"]) {
    const list = obj[field];
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!c || typeof c !== "object" || Array.isArray(c) || typeof c.image !== "string") continue;
      for (const image of images) {
        const next = rewrite(c.image, image);
        if (next !== undefined) {
          c.image = next;
          break;
        }
      }
    }
  }
  for (const value of Object.values(obj)) walkImages(value, images);
}

export function transformImages(
  resmap: ResMap,
  images: Image[] | undefined,
  fieldSpecs: FieldSpec[] = resmap.transformerConfig.images,
): void {
  // The image setter creates nothing (kustomize gives it no kind to create), whatever `create` says.
  const specs = fieldSpecs.map((fs) => ({ ...fs, create: false }));
  for (const image of images ?? []) {
    // kustomize runs two passes per entry: every containers list at any depth (not in CRDs), then the
    // image fields of its configuration — harmless except that a tagSuffix is applied twice there.
    for (const r of resmap.list) if (r.obj.kind !== "CustomResourceDefinition") walkImages(r.obj, [image]);
    const targets = resmap.list.filter((r) => r.obj.kind !== "CustomResourceDefinition");
    applySpecs(targets, specs, (_r, parent, key) => {
      const value = parent[key];
      if (typeof value === "string") parent[key] = rewrite(value, image) ?? value;
    });
  }
}
