// images: rewrite container images by name — newName, newTag, digest (digest wins over tag).
import type { ResMap } from "../accumulate.js";
import type { Image } from "../kustomization-file.js";
import type { JsonObject } from "../resource.js";

/** Splits `registry:port/path/name:tag@digest` into name, tag and digest. */
export function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf("@");
  if (at >= 0) [rest, digest] = [rest.slice(0, at), rest.slice(at + 1)];
  const slash = rest.lastIndexOf("/");
  const colon = rest.lastIndexOf(":");
  let tag: string | undefined;
  if (colon > slash) [rest, tag] = [rest.slice(0, colon), rest.slice(colon + 1)];
  return { name: rest, tag, digest };
}

function rewrite(current: string, image: Image): string | undefined {
  const parts = splitImage(current);
  if (parts.name !== image.name) return undefined;
  const name = image.newName ?? parts.name;
  if (image.digest) return `${name}@${image.digest}`;
  if (image.newTag) return `${name}:${image.newTag}`;
  if (image.tagSuffix) return `${name}:${parts.tag ?? "latest"}${image.tagSuffix}`;
  return `${name}${parts.tag ? `:${parts.tag}` : ""}${parts.digest ? `@${parts.digest}` : ""}`;
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

export function transformImages(resmap: ResMap, images: Image[] | undefined): void {
  if (!images?.length) return;
  for (const r of resmap.list) walkImages(r.obj, images);
}
