// New client identities for a plane of the test fleet, issued by the plane's own CA with the
// project's PKI, as a Kamaji operator would re-issue a tenant's admin certificate — or by a CA the
// plane does not trust (as after the plane's CA was rotated), which its apiserver rejects.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { endpointFromKubeconfigFile } from "../../src/kube/kubeconfig.js";
import { renderKubeconfig } from "../../src/local/kubeconfig-file.js";
import { generateKeyPair, issueCertificate, keyPairFromPem, type Subject } from "../../src/local/pki/certificate.js";
import { planeCaSubject } from "../../src/local/pki/plane-pki.js";
import { planeDir } from "../../src/local/plane-files.js";
import { plane, testFleet } from "./fleet-context.js";

/** A kubeconfig (text) for `subject` on the plane, with a certificate signed by the plane's CA (or a stranger's). */
export function issueKubeconfig(planeName: string, subject: Subject, signer: "plane" | "stranger" = "plane"): string {
  const pki = join(planeDir(testFleet().dir, planeName), "pki");
  const caPem = readFileSync(join(pki, "ca.crt"), "utf8");
  const issuer = {
    subject: planeCaSubject(planeName),
    // A stranger signs under the plane CA's name with its own key: only the signature tells them apart.
    keys: signer === "plane" ? keyPairFromPem(readFileSync(join(pki, "ca.key"), "utf8")) : generateKeyPair(),
  };
  const cert = issueCertificate({ subject, validityDays: 1, clientAuth: true }, generateKeyPair(), issuer);
  return renderKubeconfig({
    clusterName: planeName,
    server: endpointFromKubeconfigFile(plane(planeName).kubeconfig).server,
    caPem,
    userName: subject.commonName,
    certPem: cert.certificatePem,
    keyPem: cert.privateKeyPem,
  });
}
