// status.observedPostRenderersDigest / observedCommonMetadataDigest: helm-controller's postrender.Digest
// and CommonMetadataDigest — sha256 of Go's json.Encoder output for the v2 structs (fields in struct
// order, omitempty, map keys sorted by bytes, <, > and & escaped, a trailing newline); none when the
// field is unset. A change after a new generation makes the next reconcile upgrade.
import { createHash } from "node:crypto";
import type { HelmRelease, PostRenderer } from "../../../api/helm/helmrelease.js";

/** A Go struct: its fields in declaration order, each [jsonName, value, omitempty]. */
class Struct {
  constructor(readonly fields: [string, unknown, boolean][]) {}
}

const empty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === "" ||
  v === false ||
  v === 0 ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && !(v instanceof Struct) && Object.keys(v).length === 0);

const goString = (s: string) =>
  JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

function goJson(v: unknown): string {
  if (v === undefined || v === null) return "null";
  if (v instanceof Struct)
    return `{${v.fields
      .filter(([, x, omitempty]) => !(omitempty && empty(x)))
      .map(([k, x]) => `${goString(k)}:${goJson(x)}`)
      .join(",")}}`;
  if (Array.isArray(v)) return `[${v.map(goJson).join(",")}]`;
  if (typeof v === "string") return goString(v);
  if (typeof v === "object") {
    const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `{${keys.map((k) => `${goString(k)}:${goJson((v as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

const SELECTOR = ["group", "version", "kind", "namespace", "name", "annotationSelector", "labelSelector"];

function selector(t: Record<string, string> | undefined): Struct | undefined {
  return t && new Struct(SELECTOR.map((k) => [k, t[k] ?? "", true]));
}

const patch = (p: string, target?: Record<string, string>) =>
  new Struct([
    ["patch", p, false],
    ["target", selector(target), true],
  ]);

/** A PostRenderer as the v2 struct: v2beta strategic merge and JSON 6902 patches read as patches. */
function postRenderer(r: PostRenderer): Struct {
  const k = r.kustomize;
  const patches = k && [
    ...(k.patchesStrategicMerge ?? []).map((p) => patch(JSON.stringify(p))),
    ...(k.patches ?? []).map((p) => patch(p.patch, p.target)),
    ...(k.patchesJson6902 ?? []).map((p) => patch(JSON.stringify(p.patch), p.target)),
  ];
  const images = k?.images?.map(
    (i) =>
      new Struct([
        ["name", i.name, false],
        ["newName", i.newName, true],
        ["newTag", i.newTag, true],
        ["digest", i.digest, true],
      ]),
  );
  const kustomize =
    k &&
    new Struct([
      ["patches", patches, true],
      ["images", images, true],
    ]);
  return new Struct([["kustomize", kustomize, true]]);
}

export function postRenderersDigest(hr: HelmRelease): string | undefined {
  const list = hr.spec.postRenderers;
  return list ? sha256(`${goJson(list.map(postRenderer))}\n`) : undefined;
}

export function commonMetadataDigest(hr: HelmRelease): string | undefined {
  const m = hr.spec.commonMetadata;
  if (!m) return undefined;
  return sha256(
    `${goJson(
      new Struct([
        ["annotations", m.annotations, true],
        ["labels", m.labels, true],
      ]),
    )}\n`,
  );
}
