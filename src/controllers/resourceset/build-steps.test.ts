import { describe, expect, it } from "vitest";
import { buildResourceSetSteps, validateResourceSetSpec } from "./build.js";

describe("ResourceSet spec.steps build (the operator's BuildResourceSetSteps)", () => {
  it("treats the same group/kind/namespace/name in two API versions as one object across steps", () => {
    const hr = (apiVersion: string) => ({
      apiVersion,
      kind: "HelmRelease",
      metadata: { name: "app", namespace: "apps" },
    });
    const spec = {
      steps: [
        { name: "pre-deploy", resources: [hr("helm.toolkit.fluxcd.io/v2beta2")] },
        { name: "deploy", resources: [hr("helm.toolkit.fluxcd.io/v2")] },
      ],
    };
    expect(() => buildResourceSetSteps(spec, [])).toThrow(
      'duplicate resource HelmRelease/apps/app in step "deploy", already defined in step "pre-deploy"',
    );
  });

  it("prefixes a step's build failure with the step name, the input set and the template line", () => {
    const spec = {
      steps: [
        {
          name: "deploy",
          resourcesTemplate: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: << inputs.missing >>\n",
        },
      ],
    };
    expect(() => buildResourceSetSteps(spec, [{ id: "a1", name: "x" }])).toThrow(
      'step "deploy": failed to build resourcesTemplate for inputs[0] (id a1): template: resourceset:4:11: executing "resourceset" at <inputs>: map has no entry for key "missing"',
    );
  });

  // Go's text for the template part, as tools/resourceset-template (the Go engine) prints it.
  it("names the step, the input set and the line of a template that does not parse, or that renders invalid YAML", () => {
    const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n";
    const build = (resourcesTemplate: string) => () =>
      buildResourceSetSteps({ steps: [{ name: "deploy", resourcesTemplate }] }, [{ id: "a1", name: "x" }]);
    expect(build(`${cm}  name: << inputs.name \n`)).toThrow(
      'step "deploy": failed to build resourcesTemplate for inputs[0] (id a1): template: resourceset:5: unclosed action started at resourceset:4',
    );
    expect(build(`${cm}  name: << inputs.name >>\n  labels: [a\n`)).toThrow(
      'step "deploy": failed to build resourcesTemplate for inputs[0] (id a1): failed to read objects from resourcesTemplate: resourcesTemplate: document 1: invalid YAML at line 6, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]',
    );
  });

  it("validates as the operator's ValidateResourceSetSpec for builds the API server did not check", () => {
    expect(() =>
      validateResourceSetSpec({ steps: [{ name: "a", resourcesTemplate: "x" }], resourcesTemplate: "y" }),
    ).toThrow("spec.steps is mutually exclusive with spec.resources and spec.resourcesTemplate");
    expect(() => validateResourceSetSpec({ steps: [{ name: "empty" }] })).toThrow(
      'step "empty": at least one of resources or resourcesTemplate must be set',
    );
  });

  it("wraps a steps-less spec as one anonymous step", () => {
    const steps = buildResourceSetSteps(
      { resources: [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "n" } }] },
      [],
    );
    expect(steps).toEqual([
      { objects: [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "n" } }] },
    ]);
  });
});
