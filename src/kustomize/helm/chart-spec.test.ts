import { describe, expect, it } from "vitest";
import { buildKustomization } from "../index.js";
import { checkChart, checkGlobals, pullArgs, templateArgs } from "./chart-spec.js";

const where = "kustomization.yaml: helmCharts[0]";

describe("helmCharts entries", () => {
  it("refuses unknown and mistyped fields, as kustomize's strict decoding does", () => {
    expect(() => checkChart({ name: "web", foo: "bar" }, where)).toThrow('helmCharts[0]: unknown field "foo"');
    expect(() => checkChart({ name: "web", version: 1.2 }, where)).toThrow("helmCharts[0].version: expected string");
    expect(() => checkChart({ name: "web", includeCRDs: "yes" }, where)).toThrow("expected boolean");
    expect(() => checkGlobals({ chartHome: "charts", cache: "x" }, "helmGlobals")).toThrow('unknown field "cache"');
  });

  it("refuses names helm would read as flags, and unknown valuesMerge", () => {
    expect(() => checkChart({}, where)).toThrow("chart name cannot be empty");
    expect(() => checkChart({ name: "--post-renderer=x" }, where)).toThrow("must not start with '-'");
    expect(() => checkChart({ name: "web", releaseName: "-x" }, where)).toThrow("must not start with '-'");
    expect(() => checkChart({ name: "web", valuesMerge: "deep" }, where)).toThrow("valuesMerge must be one of");
  });

  it("builds kustomize's helm template arguments, in its order", () => {
    const c = checkChart(
      {
        name: "web",
        namespace: "shop",
        nameTemplate: "x",
        apiVersions: ["a/v1", "b/v1"],
        kubeVersion: "1.30",
        includeCRDs: true,
        skipTests: true,
        skipHooks: true,
      },
      where,
    );
    expect(templateArgs(c, "/k/charts/web", "/tmp/v.yaml", ["/k/extra.yaml"])).toEqual([
      "template",
      "--generate-name",
      "/k/charts/web",
      "--namespace",
      "shop",
      "--name-template",
      "x",
      "-f",
      "/tmp/v.yaml",
      "-f",
      "/k/extra.yaml",
      "--api-versions",
      "a/v1",
      "--api-versions",
      "b/v1",
      "--kube-version",
      "1.30",
      "--include-crds",
      "--skip-tests",
      "--no-hooks",
    ]);
  });

  it("pulls from a repo URL or an OCI reference", () => {
    const http = checkChart({ name: "web", repo: "https://charts.example.com", version: "1.0.0" }, where);
    expect(pullArgs(http, "/k/charts/web-1.0.0")).toEqual([
      "pull",
      "--untar",
      "--untardir",
      "/k/charts/web-1.0.0",
      "--repo",
      "https://charts.example.com",
      "web",
      "--version",
      "1.0.0",
    ]);
    const oci = checkChart({ name: "web", repo: "oci://registry.example.com/charts/" }, where);
    expect(pullArgs(oci, "/k/charts")).toEqual([
      "pull",
      "--untar",
      "--untardir",
      "/k/charts",
      "oci://registry.example.com/charts/web",
    ]);
  });

  it("fails a build with helmCharts unless helm is enabled, naming the field and the flag", async () => {
    const failure = await buildKustomization("test/fixtures/kustomize/error-helm-charts-without-enable-helm").then(
      () => "built",
      (e: Error) => e.message,
    );
    expect(failure).toMatch(/field "helmCharts" needs helm, which is off: enable it with .*--enable-helm/);
  });
});
