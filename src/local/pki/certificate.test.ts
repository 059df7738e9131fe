import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateKeyPair, issueCertificate } from "./certificate.js";

describe("issueCertificate", () => {
  const caKeys = generateKeyPair();
  const caSubject = { commonName: "flotilla-test-ca" };
  const ca = issueCertificate({ subject: caSubject, validityDays: 10, isCA: true }, caKeys);

  it("makes a self-signed CA that Node's X.509 parser accepts and verifies", () => {
    const cert = new X509Certificate(ca.certificatePem);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe("CN=flotilla-test-ca");
    expect(cert.verify(caKeys.publicKey)).toBe(true);
  });

  it("issues a serving certificate with IP and DNS subject alternative names signed by the CA", () => {
    const leaf = issueCertificate(
      {
        subject: { commonName: "kube-apiserver" },
        validityDays: 5,
        serverAuth: true,
        altNames: ["127.0.0.1", "localhost"],
      },
      generateKeyPair(),
      { subject: caSubject, keys: caKeys },
    );
    const cert = new X509Certificate(leaf.certificatePem);
    const caCert = new X509Certificate(ca.certificatePem);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caKeys.publicKey)).toBe(true);
    expect(cert.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(cert.checkHost("localhost")).toBe("localhost");
    expect(cert.keyUsage).toContain("1.3.6.1.5.5.7.3.1");
  });

  it("puts organizations before the common name, as Kubernetes reads groups from O", () => {
    const leaf = issueCertificate(
      { subject: { commonName: "admin", organizations: ["system:masters"] }, validityDays: 1, clientAuth: true },
      generateKeyPair(),
      { subject: caSubject, keys: caKeys },
    );
    const cert = new X509Certificate(leaf.certificatePem);
    expect(cert.subject.split("\n")).toEqual(["O=system:masters", "CN=admin"]);
    expect(cert.issuer).toBe("CN=flotilla-test-ca");
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now());
  });
});
