import { describe, expect, it } from "vitest";
import type { KubeObject } from "../api/meta/object.js";
import { hasDrifted } from "./drift.js";
import { normalize } from "./normalize.js";
import { Redactor } from "./redact.js";

const cm = (data: Record<string, string>, meta: Partial<KubeObject["metadata"]> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "x", namespace: "a", resourceVersion: "5", ...meta },
  data,
});

describe("drift", () => {
  it("ignores metadata other than labels and annotations, and status", () => {
    expect(
      hasDrifted(cm({ a: "1" }, { managedFields: [], generation: 3 }), {
        ...cm({ a: "1" }, { resourceVersion: "9" }),
        status: { x: 1 },
      }),
    ).toBe(false);
  });
  it("sees changed data, labels and annotations, and new objects", () => {
    expect(hasDrifted(cm({ a: "1" }), cm({ a: "2" }))).toBe(true);
    expect(hasDrifted(cm({}), cm({}, { labels: { l: "1" } }))).toBe(true);
    expect(hasDrifted(cm({}, { annotations: {} }), cm({}))).toBe(false);
    expect(hasDrifted(undefined, cm({}))).toBe(true);
    expect(hasDrifted(cm({}), cm({}, { resourceVersion: "" }))).toBe(true);
  });
});

describe("normalize", () => {
  it("moves Secret stringData into data and drops status and creationTimestamp", () => {
    const n = normalize({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s", creationTimestamp: null },
      stringData: { p: "pw" },
      status: {},
    });
    expect(n).toEqual({ apiVersion: "v1", kind: "Secret", metadata: { name: "s" }, data: { p: "cHc=" } });
  });
  it("defaults container and service port protocols to TCP, keeping CRD status", () => {
    const d = normalize({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d" },
      spec: {
        template: {
          spec: { containers: [{ name: "c", ports: [{ containerPort: 80 }, { containerPort: 53, protocol: "UDP" }] }] },
        },
      },
    }) as KubeObject & { spec: { template: { spec: { containers: { ports: { protocol: string }[] }[] } } } };
    expect(d.spec.template.spec.containers[0]!.ports.map((p) => p.protocol)).toEqual(["TCP", "UDP"]);
    expect(
      normalize({
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        metadata: { name: "c" },
        status: { a: 1 },
      }).status,
    ).toEqual({ a: 1 });
  });
});

describe("redaction of Secret values", () => {
  it("removes plain and base64 forms of every Secret value from messages", () => {
    const r = new Redactor().addObjects([
      {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: "s" },
        data: { a: Buffer.from("topsecret").toString("base64") },
        stringData: { b: "other-secret" },
      },
    ]);
    const msg = `Invalid value: "topsecret" and ${Buffer.from("topsecret").toString("base64")} and other-secret and ${Buffer.from("other-secret").toString("base64")}`;
    expect(r.redact(msg)).toBe('Invalid value: "***" and *** and *** and ***');
  });

  it("removes values known to be secret from elsewhere (substituted from a Secret), plain and base64", () => {
    const r = new Redactor().addValues(["db-pass-0451"]);
    expect(r.redact(`value "db-pass-0451" (${Buffer.from("db-pass-0451").toString("base64")})`)).toBe(
      'value "***" (***)',
    );
  });
});
