import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../api/meta/object.js";
import { computeHealth } from "./status.js";

const obj = (
  apiVersion: string,
  kind: string,
  rest: Record<string, unknown>,
  meta: Record<string, unknown> = {},
): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name: "x", namespace: "a", ...meta },
  ...rest,
});

describe("kstatus rules", () => {
  it("Deployment: replica counts in order, then availability", () => {
    const d = (status: Record<string, unknown>, spec: Record<string, unknown> = { replicas: 2 }) =>
      computeHealth(obj("apps/v1", "Deployment", { spec, status }, { generation: 1 }));
    expect(d({ observedGeneration: 1, replicas: 1 })).toEqual({ status: "InProgress", message: "Replicas: 1/2" });
    expect(
      d({ observedGeneration: 1, replicas: 2, updatedReplicas: 2, availableReplicas: 1, readyReplicas: 2 }),
    ).toEqual({ status: "InProgress", message: "Available: 1/2" });
    expect(d({ observedGeneration: 0 })).toEqual({
      status: "InProgress",
      message: "Deployment generation is 1, but latest observed generation is 0",
    });
    expect(
      d({
        observedGeneration: 1,
        replicas: 2,
        updatedReplicas: 2,
        availableReplicas: 2,
        readyReplicas: 2,
        conditions: [{ type: "Available", status: "True" }],
      }),
    ).toEqual({ status: "Current", message: "Deployment is available. Replicas: 2" });
    expect(
      d({
        observedGeneration: 1,
        conditions: [{ type: "Progressing", status: "False", reason: "ProgressDeadlineExceeded" }],
      }).status,
    ).toBe("Failed");
  });

  it("Pod: reports blocking container reasons that kstatus alone would hide", () => {
    const pod = computeHealth(
      obj("v1", "Pod", {
        status: {
          phase: "Pending",
          containerStatuses: [{ name: "c", state: { waiting: { reason: "ImagePullBackOff", message: "nope" } } }],
        },
      }),
    );
    expect(pod).toEqual({
      status: "InProgress",
      message: "Pod is in the Pending phase: container c waiting: ImagePullBackOff (nope)",
    });
    const crash = computeHealth(
      obj("v1", "Pod", {
        status: {
          phase: "Running",
          containerStatuses: [{ name: "c", state: { waiting: { reason: "CrashLoopBackOff" } } }],
        },
      }),
    );
    expect(crash).toEqual({ status: "Failed", message: "Containers in CrashLoop state: c" });
  });

  it("Job, PVC, Service, CRD and generic conditions", () => {
    expect(
      computeHealth(
        obj("batch/v1", "Job", {
          spec: {},
          status: { succeeded: 1, conditions: [{ type: "Complete", status: "True" }] },
        }),
      ).message,
    ).toBe("Job Completed. succeeded: 1/1");
    expect(computeHealth(obj("v1", "PersistentVolumeClaim", { status: { phase: "Pending" } })).message).toBe(
      "PVC is not Bound. phase: Pending",
    );
    expect(computeHealth(obj("v1", "Service", { spec: { type: "LoadBalancer" } })).status).toBe("InProgress");
    expect(
      computeHealth(
        obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", {
          status: { conditions: [{ type: "Established", status: "True" }] },
        }),
      ).status,
    ).toBe("Current");
    expect(
      computeHealth(
        obj("x.io/v1", "Thing", { status: { conditions: [{ type: "Stalled", status: "True", message: "stuck" }] } }),
      ),
    ).toEqual({
      status: "Failed",
      message: "stuck",
    });
    expect(computeHealth(obj("v1", "ConfigMap", {}, { deletionTimestamp: "2026-01-01T00:00:00Z" })).status).toBe(
      "Terminating",
    );
    expect(computeHealth(undefined).status).toBe("NotFound");
  });
  it("judges a kind without rules by its Ready condition (kstatus checkReadyCondition): Ready=False without Stalled or Reconciling is InProgress, not Current", () => {
    const ks = (ready: string, extra: object[] = []) =>
      computeHealth(
        obj(
          "kustomize.toolkit.fluxcd.io/v1",
          "Kustomization",
          {
            status: {
              observedGeneration: 1,
              conditions: [
                { type: "Ready", status: ready, reason: "BuildFailed", message: "kustomize build failed" },
                ...extra,
              ],
            },
          },
          { generation: 1 },
        ),
      );
    expect(ks("False")).toEqual({ status: "InProgress", message: "kustomize build failed" });
    expect(ks("Unknown").status).toBe("InProgress");
    expect(ks("True")).toEqual({ status: "Current", message: "Resource is Ready" });
    expect(ks("False", [{ type: "Stalled", status: "True", message: "stuck" }])).toEqual({
      status: "Failed",
      message: "stuck",
    });
    expect(computeHealth(obj("x.io/v1", "Thing", { status: {} })).status).toBe("Current");
  });
});
