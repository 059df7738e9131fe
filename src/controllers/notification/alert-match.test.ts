import { describe, expect, it } from "vitest";
import type { Alert } from "../../api/notification/alert.js";
import type { FluxEvent } from "../../runtime/flux-event.js";
import {
  cleanupMetadata,
  combineMetadata,
  duplicateKey,
  matchesSource,
  messageAllowed,
  regexProblems,
  type RegexProblem,
} from "./alert-match.js";
import { DuplicateLimiter } from "./rate-limit.js";

const event = (over: Partial<FluxEvent> = {}): FluxEvent => ({
  involvedObject: {
    kind: "Kustomization",
    namespace: "apps",
    name: "web",
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
  },
  severity: "info",
  timestamp: "2026-01-01T00:00:00Z",
  message: "applied",
  reason: "ReconciliationSucceeded",
  reportingController: "kustomize-controller",
  ...over,
});
const alert = (spec: Partial<Alert["spec"]> = {}): Alert => ({
  apiVersion: "notification.toolkit.fluxcd.io/v1beta3",
  kind: "Alert",
  metadata: { name: "a", namespace: "apps" },
  spec: { providerRef: { name: "p" }, eventSources: [{ kind: "Kustomization", name: "*" }], ...spec },
});

describe("which Alerts an event goes to (notification-controller's rules)", () => {
  it("matches kind, the Alert's namespace by default, a name or *, and matchLabels on the object's labels", () => {
    const a = alert();
    expect(matchesSource(event(), a, { kind: "Kustomization", name: "*" }, undefined)).toBe(true);
    expect(matchesSource(event(), a, { kind: "Kustomization", name: "other" }, undefined)).toBe(false);
    expect(matchesSource(event(), a, { kind: "GitRepository", name: "*" }, undefined)).toBe(false);
    expect(matchesSource(event(), a, { kind: "Kustomization", name: "*", namespace: "elsewhere" }, undefined)).toBe(
      false,
    );
    const labelled = { kind: "Kustomization", name: "*", matchLabels: { team: "a" } };
    expect(matchesSource(event(), a, labelled, { team: "a", x: "y" })).toBe(true);
    expect(matchesSource(event(), a, labelled, { team: "b" })).toBe(false);
  });

  it("an error-severity Alert takes errors only; an info Alert takes both", () => {
    const src = { kind: "Kustomization", name: "*" };
    expect(matchesSource(event(), alert({ eventSeverity: "error" }), src, undefined)).toBe(false);
    expect(matchesSource(event({ severity: "error" }), alert({ eventSeverity: "error" }), src, undefined)).toBe(true);
    expect(matchesSource(event({ severity: "error" }), alert(), src, undefined)).toBe(true);
  });

  it("applies the inclusion list, then the exclusion list, and reports expressions that do not compile", () => {
    expect(messageAllowed(alert({ inclusionList: ["^app"] }), "applied")).toBe(true);
    expect(messageAllowed(alert({ inclusionList: ["^fail"] }), "applied")).toBe(false);
    expect(messageAllowed(alert({ exclusionList: ["lied$"] }), "applied")).toBe(false);
    const problems: RegexProblem[] = [];
    expect(messageAllowed(alert({ exclusionList: ["(unclosed"] }), "applied", problems)).toBe(true);
    expect(problems).toEqual([{ list: "exclusion", expression: "(unclosed" }]);
    expect(regexProblems(alert({ inclusionList: ["ok", "[bad"] }))).toEqual([
      { list: "inclusion", expression: "[bad" },
    ]);
  });

  it("keeps only the event's and the object's group metadata, less checksum and token, and merges eventMetadata and summary under the object's keys", () => {
    const raw = event({
      metadata: {
        "kustomize.toolkit.fluxcd.io/revision": "main@sha1:1",
        "kustomize.toolkit.fluxcd.io/checksum": "c",
        "kustomize.toolkit.fluxcd.io/token": "t",
        "event.toolkit.fluxcd.io/env": "from-event",
        "other.io/x": "dropped",
      },
    });
    const clean = cleanupMetadata(raw);
    expect(clean.metadata).toEqual({
      "kustomize.toolkit.fluxcd.io/revision": "main@sha1:1",
      "event.toolkit.fluxcd.io/env": "from-event",
    });
    const merged = combineMetadata(clean, alert({ eventMetadata: { env: "from-alert", team: "a" }, summary: "s" }));
    expect(merged.metadata).toEqual({ env: "from-alert", team: "a", summary: "s", revision: "main@sha1:1" });
  });
});

describe("rate limiting of identical events (Flux's eventKeyFunc and go-limiter's one token per interval)", () => {
  it("drops an identical event inside the interval and takes it again in the next; a new revision or message is not identical", () => {
    let now = 0;
    const limiter = new DuplicateLimiter(300_000, () => now);
    const e = event({ metadata: { "kustomize.toolkit.fluxcd.io/revision": "r1" } });
    expect(limiter.take(duplicateKey(e))).toBe(true);
    now = 299_000;
    expect(limiter.take(duplicateKey(e))).toBe(false);
    expect(limiter.take(duplicateKey({ ...e, metadata: { "kustomize.toolkit.fluxcd.io/revision": "r2" } }))).toBe(true);
    expect(limiter.take(duplicateKey({ ...e, message: "other" }))).toBe(true);
    now = 300_001;
    expect(limiter.take(duplicateKey(e))).toBe(true);
    expect(limiter.take(duplicateKey(e))).toBe(false);
  });
});
