import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../api/meta/object.js";
import type { ReceiverSpec } from "../../api/notification/receiver.js";
import { formatDuration } from "../../util/duration.js";
import { ReconcileRequestFailed } from "./errors.js";
import { refusal } from "./reconciler.js";
import { goTimeString, requestedAtNow } from "./requested-at.js";
import { isJsonContent, resourceFilters } from "./resource-filter.js";
import { labelSelectorOf, targetOf } from "./request-reconcile.js";
import { crossNamespacePolicy } from "./cross-namespace.js";

const REFUSE = crossNamespacePolicy({});
const ALLOW = crossNamespacePolicy({ receiverAllowCrossNamespace: true });

const spec = (extra: Partial<ReceiverSpec> = {}): ReceiverSpec => ({
  type: "github",
  secretRef: { name: "token" },
  resources: [{ kind: "GitRepository", name: "app" }],
  ...extra,
});

describe("what a Receiver's controller refuses", () => {
  it.each(["bitbucket", "harbor", "dockerhub", "quay", "gcr", "nexus", "acr", "cdevents", "generic-oidc"])(
    "type %s: Stalled (UnsupportedField), naming it and the supported types",
    (type) => {
      const f = refusal(spec({ type }))!;
      expect(f.stalled).toBe(true);
      expect(f.reason).toBe("UnsupportedField");
      expect(f.message).toBe(
        `spec.type '${type}' is not supported by flotilla: the receiver types flotilla verifies are generic, generic-hmac, github, gitlab (generic-hmac takes an X-Signature HMAC of the body from any sender)`,
      );
    },
  );

  it.each(["generic", "generic-hmac", "github", "gitlab"])("type %s is served", (type) => {
    expect(refusal(spec({ type }))).toBeUndefined();
  });

  it("an invalid or non-boolean CEL filter stalls it (InvalidCELExpression, Flux's terminal wording)", () => {
    const bad = refusal(spec({ resourceFilter: "res.metadata.name ==" }))!;
    expect(bad.reason).toBe("InvalidCELExpression");
    expect(bad.message).toMatch(
      /^Reconciliation failed terminally due to configuration error: invalid resourceFilter expression: /,
    );
    expect(refusal(spec({ resourceFilter: "'a'" }))!.message).toContain("must be boolean");
    const perResource = refusal(spec({ resources: [{ kind: "GitRepository", name: "app", filter: "1 +" }] }))!;
    expect(perResource.message).toContain(
      'invalid filter expression for resources[0] (kind="GitRepository", name="app")',
    );
    expect(
      refusal(spec({ resourceFilter: 'res.metadata.name == "app" && req.ref == "refs/heads/main"' })),
    ).toBeUndefined();
  });

  it("without a secretRef, or with oidcProviders on another type: ValidationFailed (the beta CRDs do not check it)", () => {
    expect(refusal(spec({ secretRef: undefined }))!.message).toContain(
      "secretRef is required when type is not generic-oidc",
    );
    expect(refusal(spec({ oidcProviders: [{}] }))!.reason).toBe("ValidationFailed");
  });
});

describe("resource filters", () => {
  const app = (name: string, labels: Record<string, string> = {}): KubeObject => ({
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name, namespace: "ns", labels, generation: 3 },
  });
  const payload = Buffer.from('{"ref":"refs/heads/main","count":2}');

  it("none set: every resource accepted without reading the body", () => {
    expect(resourceFilters(spec(), "application/json", Buffer.from("not json"))).toEqual([undefined]);
  });

  it("see res (metadata) and req (the JSON body); top-level and per-resource filters must both accept", () => {
    const [f] = resourceFilters(
      spec({
        resourceFilter: 'req.ref == "refs/heads/main" && req.count == 2',
        resources: [{ kind: "GitRepository", name: "*", filter: 'res.metadata.labels["tier"] == "web"' }],
      }),
      "application/json; charset=utf-8",
      payload,
    );
    expect(f!(app("a", { tier: "web" }))).toBe(true);
    expect(f!(app("b", { tier: "db" }))).toBe(false);
    const [g] = resourceFilters(spec({ resourceFilter: 'req.ref == "refs/heads/other"' }), "application/json", payload);
    expect(g!(app("a"))).toBe(false);
  });

  it("a body that is not JSON is {} as req; one that claims JSON and is not fails the request", () => {
    const [f] = resourceFilters(spec({ resourceFilter: "size(req) == 0" }), "text/plain", Buffer.from("x"));
    expect(f!(app("a"))).toBe(true);
    expect(() => resourceFilters(spec({ resourceFilter: "true" }), "application/json", Buffer.from("{"))).toThrow(
      ReconcileRequestFailed,
    );
    expect(isJsonContent("text/plain, application/json")).toBe(true);
    expect(isJsonContent(undefined)).toBe(false);
  });

  it("an evaluation error fails the request (Flux answers 500)", () => {
    const [f] = resourceFilters(spec({ resourceFilter: 'req.missing == "x"' }), "application/json", payload);
    expect(() => f!(app("a"))).toThrow(ReconcileRequestFailed);
  });
});

describe("which objects an entry points at", () => {
  it("the Receiver's namespace unless the entry names one; another only when the operator allows it", () => {
    expect(targetOf({ kind: "GitRepository", name: "a" }, "ns", REFUSE)).toEqual({
      namespace: "ns",
      apiVersion: "source.toolkit.fluxcd.io/v1",
    });
    expect(targetOf({ kind: "GitRepository", name: "a", namespace: "other" }, "ns", ALLOW).namespace).toBe("other");
    expect(targetOf({ kind: "GitRepository", name: "a", namespace: "ns" }, "ns", REFUSE).namespace).toBe("ns");
    expect(() => targetOf({ kind: "GitRepository", name: "a", namespace: "other" }, "ns", REFUSE, 2)).toThrow(
      'cross-namespace references are not allowed: spec.resources[2] names GitRepository "other/a" in another namespace',
    );
  });

  it("kinds outside Flux's default table need an apiVersion (a Kustomization does, as in Flux)", () => {
    expect(() => targetOf({ kind: "Kustomization", name: "a" }, "ns", ALLOW)).toThrow(
      'apiVersion must be specified for kind "Kustomization"',
    );
    expect(
      targetOf({ kind: "Kustomization", name: "a", apiVersion: "kustomize.toolkit.fluxcd.io/v1" }, "ns", ALLOW)
        .apiVersion,
    ).toBe("kustomize.toolkit.fluxcd.io/v1");
    expect(labelSelectorOf({ app: "web", tier: "front" })).toBe("app=web,tier=front");
  });

  it("only the toolkit's and the fleet's groups: a same-named kind of another group is refused, naming it", () => {
    expect(() => targetOf({ kind: "Bucket", name: "*", apiVersion: "s3.aws.upbound.io/v1beta1" }, "ns", ALLOW)).toThrow(
      'apiVersion "s3.aws.upbound.io/v1beta1" of Bucket "*" is not a Flux or flotilla kind',
    );
    expect(() => targetOf({ kind: "GitRepository", name: "a", apiVersion: "v1" }, "ns", ALLOW)).toThrow(
      "is not a Flux or flotilla kind",
    );
    for (const apiVersion of [
      "image.toolkit.fluxcd.io/v1",
      "source.extensions.fluxcd.io/v1beta1",
      "fleet.flotilla.dev/v1alpha1",
    ])
      expect(targetOf({ kind: "HelmRelease", name: "a", apiVersion }, "ns", ALLOW).apiVersion).toBe(apiVersion);
  });
});

describe("the requestedAt value (Go's metav1.Now().String())", () => {
  it("prints wall time, zone and the monotonic reading as Go does", () => {
    const at = 1_700_000_000_123_456_789n;
    expect(goTimeString(at, 12_345_678_901n)).toBe("2023-11-14 22:13:20.123456789 +0000 UTC m=+12.345678901");
    expect(goTimeString(1_700_000_000_120_000_000n, 5n)).toBe("2023-11-14 22:13:20.12 +0000 UTC m=+0.000000005");
    expect(goTimeString(1_700_000_000_000_000_000n, 0n)).toBe("2023-11-14 22:13:20 +0000 UTC m=+0.000000000");
  });

  it("changes from one call to the next", async () => {
    const first = requestedAtNow();
    await new Promise((r) => setTimeout(r, 2));
    expect(requestedAtNow()).not.toBe(first);
    expect(first).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC m=\+\d+\.\d{9}$/);
  });

  it("the interval in the success event as Go prints a duration", () => {
    expect([600_000, 3_600_000, 90_000, 1500, 250, 0].map(formatDuration)).toEqual([
      "10m0s",
      "1h0m0s",
      "1m30s",
      "1.5s",
      "250ms",
      "0s",
    ]);
  });
});
