// What the manager does to desired objects before applying: the same object the API server would
// store, so drift detection compares like with like.
import { clone } from "../kube/object.js";
import type { KubeObject } from "../api/meta/object.js";

const POD_TEMPLATES: Record<string, string[]> = {
  Pod: ["spec"],
  Deployment: ["spec", "template", "spec"],
  StatefulSet: ["spec", "template", "spec"],
  DaemonSet: ["spec", "template", "spec"],
  ReplicaSet: ["spec", "template", "spec"],
  Job: ["spec", "template", "spec"],
  CronJob: ["spec", "jobTemplate", "spec", "template", "spec"],
};

function at(obj: unknown, path: string[]): Record<string, unknown> | undefined {
  let cur = obj;
  for (const p of path) {
    if (!cur || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur && typeof cur === "object" ? (cur as Record<string, unknown>) : undefined;
}

function defaultProtocol(ports: unknown): void {
  if (!Array.isArray(ports)) return;
  for (const p of ports)
    if (p && typeof p === "object" && !(p as Record<string, unknown>).protocol)
      (p as Record<string, unknown>).protocol = "TCP";
}

export function normalize(input: KubeObject): KubeObject {
  const obj = clone(input);
  const isCrd = obj.kind === "CustomResourceDefinition";
  delete obj.metadata.creationTimestamp;
  // Status is the server's; CRDs keep theirs because health checks read it from the applied object.
  if (!isCrd) delete obj.status;
  const core = obj.apiVersion === "v1";
  if (core && obj.kind === "Secret" && obj.stringData && typeof obj.stringData === "object") {
    const data = { ...((obj.data as Record<string, string>) ?? {}) };
    for (const [k, v] of Object.entries(obj.stringData as Record<string, string>))
      data[k] = Buffer.from(String(v)).toString("base64");
    obj.data = data;
    delete obj.stringData;
  }
  if (core && obj.kind === "Service") defaultProtocol(at(obj, ["spec"])?.ports);
  const podPath = POD_TEMPLATES[obj.kind];
  if (podPath) {
    const containers = at(obj, podPath)?.containers;
    if (Array.isArray(containers)) for (const c of containers) defaultProtocol((c as Record<string, unknown>).ports);
  }
  return obj;
}
