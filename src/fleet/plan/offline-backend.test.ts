import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../api/meta/object.js";
import { compareWithSnapshot } from "./offline-backend.js";
import { scrubbed } from "./snapshot.js";

const deployment = (replicas: number, extra: Record<string, unknown> = {}) =>
  ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace: "apps" },
    spec: { replicas, template: { spec: { containers: [{ name: "app", image: "nginx:1.27", ...extra }] } } },
  }) as KubeObject;

const secret = (token: string, as: "data" | "stringData") =>
  ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "token", namespace: "apps" },
    [as]: { token: as === "data" ? Buffer.from(token).toString("base64") : token },
  }) as KubeObject;

describe("an offline plan's comparison with a snapshot", () => {
  it("counts an object as unchanged when what the render sets is there, whatever the server defaulted", () => {
    const live = scrubbed(
      deployment(1, { terminationMessagePath: "/dev/termination-log", imagePullPolicy: "IfNotPresent" }),
    );
    expect(compareWithSnapshot([deployment(1)], [live]).map((e) => e.action)).toEqual(["unchanged"]);
  });

  it("lists only the changed field, not the defaults in the same list", () => {
    const live = scrubbed(deployment(0, { terminationMessagePath: "/dev/termination-log" }));
    const [e] = compareWithSnapshot([deployment(2)], [live]);
    expect(e!.action).toBe("update");
    expect(e!.diff).toEqual([{ path: "spec.replicas", before: 0, after: 2 }]);
  });

  it("drops null fields as an apply does (a chart's unset value)", () => {
    const cm = (data: Record<string, unknown>) =>
      ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "apps" }, data }) as KubeObject;
    expect(compareWithSnapshot([cm({ a: "1", unset: null })], [scrubbed(cm({ a: "1", unset: "" }))])[0]!.action).toBe(
      "unchanged",
    );
  });

  it("compares Secret values by digest, never keeps or shows one", () => {
    const live = scrubbed(secret("s3cr3t", "data"));
    expect(JSON.stringify(live)).not.toContain("s3cr3t");
    expect(JSON.stringify(live)).not.toContain(Buffer.from("s3cr3t").toString("base64"));
    expect(compareWithSnapshot([secret("s3cr3t", "stringData")], [live])[0]!.action).toBe("unchanged");
    const [changed] = compareWithSnapshot([secret("n3w", "data")], [live]);
    expect(changed!.action).toBe("update");
    expect(changed!.diff).toEqual([{ path: "data.token", before: "*** (before)", after: "*** (after)" }]);
  });

  it("an object the snapshot does not hold is a creation", () => {
    expect(compareWithSnapshot([deployment(1)], [])[0]).toMatchObject({
      action: "create",
      subject: "Deployment/apps/web",
    });
  });

  it("drops kubectl's last-applied annotation from a snapshot (it may hold a Secret's values)", () => {
    const live = secret("s3cr3t", "data");
    live.metadata.annotations = {
      "kubectl.kubernetes.io/last-applied-configuration": '{"stringData":{"token":"s3cr3t"}}',
    };
    expect(JSON.stringify(scrubbed(live))).not.toContain("s3cr3t");
  });

  it("a field dropped from the manifests is a change when the snapshot knows what was applied", () => {
    const cm = (data: Record<string, string>) =>
      ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "apps" }, data }) as KubeObject;
    const live = cm({ a: "1", b: "2" });
    live.metadata.managedFields = [
      {
        manager: "kustomize-controller",
        operation: "Apply",
        apiVersion: "v1",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:data": { "f:a": {}, "f:b": {} } },
      },
    ];
    const [e] = compareWithSnapshot([cm({ a: "1" })], [scrubbed(live)], "kustomize-controller");
    expect(e).toMatchObject({ action: "update", reason: expect.stringMatching(/no longer in the manifests/) });
    expect(compareWithSnapshot([cm({ a: "1", b: "2" })], [scrubbed(live)], "kustomize-controller")[0]!.action).toBe(
      "unchanged",
    );
  });
});
