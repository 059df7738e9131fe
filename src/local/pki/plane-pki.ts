// The certificates one control plane needs: its own CA (planes never trust each other, as with
// Kamaji tenant control planes), the apiserver's serving certificate, a client certificate per
// component and for the admins, and the service-account signing key.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOOPBACK } from "../ports.js";
import {
  generateKeyPair,
  type IssuedCertificate,
  issueCertificate,
  privateKeyToPem,
  type Subject,
} from "./certificate.js";

/** Client identities of a plane, as kubeadm names them. */
const PLANE_CLIENTS = {
  /** kubeadm ≥1.29: admin.conf is bound to cluster-admin through this group, not system:masters. */
  admin: { commonName: "kubernetes-admin", organizations: ["kubeadm:cluster-admins"] },
  superAdmin: { commonName: "kubernetes-super-admin", organizations: ["system:masters"] },
  controllerManager: { commonName: "system:kube-controller-manager" },
  scheduler: { commonName: "system:kube-scheduler" },
  // kwok plays every kubelet of the plane; system:masters keeps its RBAC out of the way.
  kwok: { commonName: "kwok-controller", organizations: ["system:masters"] },
} satisfies Record<string, Subject>;

export type PlaneClient = keyof typeof PLANE_CLIENTS;

export interface PlanePki {
  dir: string;
  caPem: string;
  files: {
    ca: string;
    caKey: string;
    servingCert: string;
    servingKey: string;
    serviceAccountKey: string;
    serviceAccountPub: string;
  };
  clients: Record<PlaneClient, IssuedCertificate>;
}

const VALIDITY_DAYS = 365;

/** The subject of a plane's CA (the issuer name of every certificate it signs). */
export const planeCaSubject = (plane: string): Subject => ({ commonName: `flotilla-${plane}-ca` });

export function createPlanePki(dir: string, plane: string): PlanePki {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const caSubject = planeCaSubject(plane);
  const caKeys = generateKeyPair();
  const ca = issueCertificate({ subject: caSubject, validityDays: VALIDITY_DAYS * 10, isCA: true }, caKeys);
  const issuer = { subject: caSubject, keys: caKeys };
  const serving = issueCertificate(
    {
      subject: { commonName: "kube-apiserver" },
      validityDays: VALIDITY_DAYS,
      serverAuth: true,
      altNames: [LOOPBACK, "localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"],
    },
    generateKeyPair(),
    issuer,
  );
  const clients = Object.fromEntries(
    Object.entries(PLANE_CLIENTS).map(([id, subject]) => [
      id,
      issueCertificate({ subject, validityDays: VALIDITY_DAYS, clientAuth: true }, generateKeyPair(), issuer),
    ]),
  ) as Record<PlaneClient, IssuedCertificate>;
  const sa = generateKeyPair();

  const write = (name: string, content: string, mode = 0o600) => {
    const path = join(dir, name);
    writeFileSync(path, content, { mode });
    return path;
  };
  return {
    dir,
    caPem: ca.certificatePem,
    files: {
      ca: write("ca.crt", ca.certificatePem, 0o644),
      caKey: write("ca.key", ca.privateKeyPem),
      servingCert: write("apiserver.crt", serving.certificatePem, 0o644),
      servingKey: write("apiserver.key", serving.privateKeyPem),
      serviceAccountKey: write("sa.key", privateKeyToPem(sa.privateKey)),
      serviceAccountPub: write("sa.pub", sa.publicKey.export({ type: "spki", format: "pem" }).toString(), 0o644),
    },
    clients,
  };
}
