import { describe, expect, it } from "vitest";
import { cloudOnlyRefusal, detectEncryptedFormat, encryptedSecretRefusal, formatForPath } from "./sops-formats.js";

describe("kustomize-controller's SOPS detection rules", () => {
  it("takes a file's format from its name, .dockerconfigjson as JSON, anything else binary", () => {
    expect(["a.yaml", "a.yml", "a.json", "a.env", "a.ini", ".dockerconfigjson", "a.txt"].map(formatForPath)).toEqual([
      "yaml",
      "yaml",
      "json",
      "dotenv",
      "ini",
      "json",
      "binary",
    ]);
  });

  it("detects an encrypted value by sops' marker bytes only", () => {
    expect(detectEncryptedFormat(Buffer.from("a: 1\nsops:\n  mac: ENC[AES256_GCM,data:x]"))).toBe("yaml");
    expect(detectEncryptedFormat(Buffer.from("A=1\nsops_mac=ENC[AES256_GCM,data:x]"))).toBe("dotenv");
    expect(detectEncryptedFormat(Buffer.from("plain text mac: nothing"))).toBeUndefined();
  });

  it("refuses a file encrypted only for a cloud key service, naming it, and accepts one with an age recipient too", () => {
    const kmsOnly = Buffer.from("sops:\n  kms:\n    - arn: arn:aws:kms:x\n  mac: ENC[x]\n");
    expect(cloudOnlyRefusal(kmsOnly, "apps/db.yaml")).toMatch(
      /^apps\/db\.yaml is encrypted only for AWS KMS \(sops\.kms\)/,
    );
    const both = Buffer.from("sops:\n  kms:\n    - arn: x\n  age:\n    - recipient: age1x\n  mac: ENC[x]\n");
    expect(cloudOnlyRefusal(both, "apps/db.yaml")).toBeUndefined();
    expect(cloudOnlyRefusal(Buffer.from("sops_gcp_kms__list_0__map_resource_id=x\n"), "a.env")).toMatch(/GCP KMS/);
  });

  it("refuses to apply a still-encrypted Secret without spec.decryption, unless annotated decrypt: disabled", () => {
    const secret = (annotations?: Record<string, string>) => ({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "db", namespace: "apps", ...(annotations ? { annotations } : {}) },
      sops: { mac: "ENC[x]" },
    });
    expect(encryptedSecretRefusal([secret()])).toBe(
      "Secret/apps/db is SOPS encrypted, configuring decryption is required for this secret to be reconciled",
    );
    expect(encryptedSecretRefusal([secret({ "kustomize.toolkit.fluxcd.io/decrypt": "Disabled" })])).toBeUndefined();
  });
});
