// On-disk layout of a local fleet directory:
//   state.json                  what runs (fleet-state.ts)
//   etcd/                       the shared etcd's data and log
//   planes/<plane>/pki/         the plane's own CA and certificates
//   planes/<plane>/*.kubeconfig component credentials; *.log component logs
//   kubeconfigs/<plane>.kubeconfig  the admin kubeconfig users point kubectl/flotilla at
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderKubeconfig } from "./kubeconfig-file.js";
import { createPlanePki, type PlaneClient, type PlanePki } from "./pki/plane-pki.js";
import { LOOPBACK } from "./ports.js";

/** Entries `down` removes; anything else a user keeps in the directory is left alone. */
export const FLEET_ENTRIES = ["state.json", "state.json.tmp", "etcd", "planes", "kubeconfigs"] as const;

export const etcdDir = (dir: string) => join(dir, "etcd");
const planeDir = (dir: string, plane: string) => join(dir, "planes", plane);
export const userKubeconfigPath = (dir: string, plane: string) => join(dir, "kubeconfigs", `${plane}.kubeconfig`);

export interface PlaneFiles {
  dir: string;
  pki: PlanePki;
  /** kubeconfig text per client identity. */
  kubeconfigText: Record<PlaneClient, string>;
  /** kubeconfig file per client identity. */
  kubeconfigFile: Record<PlaneClient, string>;
  logFile: (component: string) => string;
}

/** Creates the plane's PKI and a kubeconfig per identity, pointing at https://127.0.0.1:<port>. */
export function writePlaneFiles(fleetDir: string, plane: string, port: number): PlaneFiles {
  const dir = planeDir(fleetDir, plane);
  mkdirSync(dir, { recursive: true });
  const pki = createPlanePki(join(dir, "pki"), plane);
  const server = `https://${LOOPBACK}:${port}`;
  const kubeconfigText = {} as Record<PlaneClient, string>;
  const kubeconfigFile = {} as Record<PlaneClient, string>;
  for (const [id, cert] of Object.entries(pki.clients) as [PlaneClient, PlanePki["clients"][PlaneClient]][]) {
    const userName = id === "admin" ? "kubernetes-admin" : id === "superAdmin" ? "kubernetes-super-admin" : id;
    kubeconfigText[id] = renderKubeconfig({
      clusterName: plane,
      server,
      caPem: pki.caPem,
      userName,
      certPem: cert.certificatePem,
      keyPem: cert.privateKeyPem,
      // The user-facing admin context is named after the plane, so `--context tenant1` reads naturally.
      contextName: id === "admin" ? plane : undefined,
    });
    kubeconfigFile[id] = join(dir, `${id}.kubeconfig`);
    writeFileSync(kubeconfigFile[id], kubeconfigText[id], { mode: 0o600 });
  }
  mkdirSync(join(fleetDir, "kubeconfigs"), { recursive: true });
  writeFileSync(userKubeconfigPath(fleetDir, plane), kubeconfigText.admin, { mode: 0o600 });
  return { dir, pki, kubeconfigText, kubeconfigFile, logFile: (component) => join(dir, `${component}.log`) };
}
