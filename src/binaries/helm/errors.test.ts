import { describe, expect, it } from "vitest";
import { FlotillaError } from "../../util/errors.js";
import {
  HelmAuthenticationError,
  HelmChartNotFoundError,
  HelmCommandError,
  HelmError,
  helmErrorFrom,
  HelmOperationInProgressError,
  HelmReleaseNotFoundError,
  HelmTimeoutError,
} from "./errors.js";

const fail = (stderr: string, args = ["pull"]) => helmErrorFrom(args, { stdout: "", stderr, code: 1 });

// stderr as the pinned helm (v4.3.1) prints it, captured by running it: against a chart repository
// served on loopback (answering 401, 403, or without the chart) and against the fleet's management
// cluster (missing releases; an install --wait that times out while an upgrade finds it locked).
// Not captured: "timed out waiting for the condition" (helm v3's wait) and the registry's oauth line.
describe("helm's stderr mapped to typed errors", () => {
  it.each([
    ['Error: chart "nope" not found in http://127.0.0.1:18765 repository', HelmChartNotFoundError],
    ['Error: chart "web" version "9.9.9" not found in http://127.0.0.1:18765 repository', HelmChartNotFoundError],
    ['Error: path "/tmp/nope-missing" not found', HelmChartNotFoundError],
    ["Error: uninstall: Release not loaded: nope: release: not found", HelmReleaseNotFoundError],
    ["Error: release: not found", HelmReleaseNotFoundError],
    ['Error: UPGRADE FAILED: "probe2" has no deployed releases', HelmReleaseNotFoundError],
    [
      "Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress",
      HelmOperationInProgressError,
    ],
    [
      "Error: INSTALLATION FAILED: resource Deployment/helm-wrapper-probe/probe-web not ready. status: InProgress, message: Available: 0/1\ncontext deadline exceeded",
      HelmTimeoutError,
    ],
    ["Error: UPGRADE FAILED: timed out waiting for the condition", HelmTimeoutError],
    [
      'Error: looks like "http://127.0.0.1:18766" is not a valid chart repository or cannot be reached: ' +
        "failed to fetch http://127.0.0.1:18766/index.yaml : 401 Unauthorized",
      HelmAuthenticationError,
    ],
    [
      'Error: looks like "http://127.0.0.1:18767" is not a valid chart repository or cannot be reached: ' +
        "failed to fetch http://127.0.0.1:18767/index.yaml : 403 Forbidden",
      HelmAuthenticationError,
    ],
    [
      "Error: failed to authorize: failed to fetch oauth token: unexpected status from GET request to https://r.example/token: 403 Forbidden",
      HelmAuthenticationError,
    ],
  ])("%s", (stderr, type) => {
    const err = fail(stderr);
    expect(err).toBeInstanceOf(type);
    expect(err.message).toBe(stderr);
  });

  it("does not read 401 or 403 inside a port or an address as a refusal", () => {
    // Connection refused on ports 401 and 4010, as helm prints it.
    for (const port of ["401", "4010", "403", "14030"]) {
      const err = fail(
        `Error: looks like "http://127.0.0.1:${port}/" is not a valid chart repository or cannot be reached: ` +
          `Get "http://127.0.0.1:${port}/index.yaml": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      );
      expect(err.constructor).toBe(HelmCommandError);
    }
    expect(fail("Error: dial tcp 10.0.401.3:443: i/o timeout").constructor).toBe(HelmCommandError);
    expect(
      fail("Error: failed to fetch http://127.0.0.1:18765/private/index.yaml : 404 File not found").constructor,
    ).toBe(HelmCommandError);
  });

  it("keeps helm's last Error line as the message, after any warnings", () => {
    const err = fail(
      "walk.go:74: found symbolic link in path\nWARNING: Kubernetes configuration file is group-readable\n" +
        "Error: validation: chart.metadata.name is required\n",
      ["package"],
    );
    expect(err.message).toBe("Error: validation: chart.metadata.name is required");
    expect(err.stderr).toContain("WARNING");
  });

  it("names the command and exit code when helm printed nothing", () => {
    expect(fail("", ["template"]).message).toBe("helm template exited with 1");
  });

  it("belongs to the HelmError family under FlotillaError", () => {
    const err = fail("Error: something else");
    expect(err).toBeInstanceOf(HelmCommandError);
    expect(err).toBeInstanceOf(HelmError);
    expect(err).toBeInstanceOf(FlotillaError);
  });
});
