// Command lines of the upstream components of a local fleet. Pure functions: what each process is
// told lives here, where it is easy to read and to test; starting them is fleet-up.ts's job.
import { LOOPBACK } from "./ports.js";

export type ComponentName = "etcd" | "kube-apiserver" | "kube-controller-manager" | "kube-scheduler" | "kwok";

export interface EtcdArgs {
  dataDir: string;
  clientPort: number;
  peerPort: number;
}

export function etcdArgs(o: EtcdArgs): string[] {
  const client = `http://${LOOPBACK}:${o.clientPort}`;
  const peer = `http://${LOOPBACK}:${o.peerPort}`;
  return [
    "etcd",
    "--name=flotilla",
    `--data-dir=${o.dataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=flotilla=${peer}`,
    "--initial-cluster-state=new",
    // A local, disposable datastore: fsync per write would dominate start-up and test time.
    "--unsafe-no-fsync",
    "--quota-backend-bytes=4294967296",
    "--log-level=warn",
  ];
}

export interface ApiserverArgs {
  plane: string;
  port: number;
  etcdPort: number;
  certFile: string;
  keyFile: string;
  clientCaFile: string;
  serviceAccountKeyFile: string;
  serviceAccountPubFile: string;
}

/** One etcd prefix per plane on the shared etcd: how Kamaji hosts tenant control planes on one datastore. */
const etcdPrefix = (plane: string) => `/flotilla/${plane}`;

export function apiserverArgs(o: ApiserverArgs): string[] {
  return [
    "kube-apiserver",
    `--etcd-servers=http://${LOOPBACK}:${o.etcdPort}`,
    `--etcd-prefix=${etcdPrefix(o.plane)}`,
    `--bind-address=${LOOPBACK}`,
    `--advertise-address=${LOOPBACK}`,
    `--secure-port=${o.port}`,
    `--tls-cert-file=${o.certFile}`,
    `--tls-private-key-file=${o.keyFile}`,
    `--client-ca-file=${o.clientCaFile}`,
    `--service-account-issuer=https://kubernetes.default.svc.cluster.local`,
    `--service-account-key-file=${o.serviceAccountPubFile}`,
    `--service-account-signing-key-file=${o.serviceAccountKeyFile}`,
    "--service-cluster-ip-range=10.96.0.0/16",
    "--authorization-mode=Node,RBAC",
    "--allow-privileged=true",
    // Endpoints may not point at loopback; there is no in-cluster network to reach anyway.
    "--endpoint-reconciler-type=none",
    "--profiling=false",
    "--shutdown-delay-duration=0s",
    "--v=0",
  ];
}

export interface ControllerManagerArgs {
  kubeconfig: string;
  clientCaFile: string;
  caKeyFile: string;
  serviceAccountKeyFile: string;
}

export function controllerManagerArgs(o: ControllerManagerArgs): string[] {
  return [
    "kube-controller-manager",
    `--kubeconfig=${o.kubeconfig}`,
    `--authentication-kubeconfig=${o.kubeconfig}`,
    `--authorization-kubeconfig=${o.kubeconfig}`,
    "--secure-port=0",
    "--leader-elect=false",
    // As kubeadm: each controller acts as its own service account with its own bootstrap RBAC role.
    "--use-service-account-credentials=true",
    `--root-ca-file=${o.clientCaFile}`,
    `--service-account-private-key-file=${o.serviceAccountKeyFile}`,
    `--cluster-signing-cert-file=${o.clientCaFile}`,
    `--cluster-signing-key-file=${o.caKeyFile}`,
    // No cloud, no real node networking: these controllers have nothing to do and only log errors.
    "--controllers=*,-nodeipam,-cloud-node-lifecycle,-service-lb-controller,-node-route-controller,-persistentvolume-binder,-persistentvolume-expander,-attachdetach",
    "--v=0",
  ];
}

export function schedulerArgs(o: { kubeconfig: string }): string[] {
  return [
    "kube-scheduler",
    `--kubeconfig=${o.kubeconfig}`,
    `--authentication-kubeconfig=${o.kubeconfig}`,
    `--authorization-kubeconfig=${o.kubeconfig}`,
    "--secure-port=0",
    "--leader-elect=false",
    "--v=0",
  ];
}

export interface KwokArgs {
  kubeconfig: string;
  stagesFile: string;
  serverPort: number;
}

/** The simulated node every plane gets; kwok manages nodes carrying this annotation only. */
export const KWOK_NODE_ANNOTATION = { key: "kwok.x-k8s.io/node", value: "fake" } as const;

export function kwokArgs(o: KwokArgs): string[] {
  return [
    `--kubeconfig=${o.kubeconfig}`,
    `--config=${o.stagesFile}`,
    "--manage-all-nodes=false",
    `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION.key}=${KWOK_NODE_ANNOTATION.value}`,
    `--node-ip=${LOOPBACK}`,
    `--server-address=${LOOPBACK}:${o.serverPort}`,
    "--cidr=10.244.0.0/16",
    // Without a node Lease kwok only patches node status every ~55s, longer than the node lifecycle
    // controller's grace period: the node flapped to Unknown each minute and its pods lost Ready for good.
    "--node-lease-duration-seconds=40",
  ];
}
