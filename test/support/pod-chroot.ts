// Runs one container of a pod spec from an unpacked image the way a kubelet and runc would, without a
// container daemon: its own mount namespace (unshare), /proc mounted and /dev bound, each emptyDir a tmpfs,
// the service-account directory bound read-only at /var/run/secrets/kubernetes.io/serviceaccount, the root
// filesystem remounted read-only when the container says so, then chroot into it as the pod's user and groups
// with no_new_privs. The command is the container's (else the image's Entrypoint), its args the container's
// (else the image's Cmd); the environment is the image's Env, then the container's env, then
// KUBERNETES_SERVICE_HOST/PORT — nothing of this process's environment. Fields this runner cannot honour are
// refused by name rather than skipped.
import { type ChildProcess, spawn } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { ImageConfig } from "./oci-unpack.js";

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath: string } };
}
export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  securityContext?: { runAsUser?: number; runAsGroup?: number; readOnlyRootFilesystem?: boolean };
  volumeMounts?: { name: string; mountPath: string }[];
}
export interface PodSpec {
  terminationGracePeriodSeconds?: number;
  serviceAccountName?: string;
  securityContext?: { runAsUser?: number; runAsGroup?: number; fsGroup?: number; supplementalGroups?: number[] };
  containers: Container[];
  volumes?: { name: string; emptyDir?: object }[];
}

export interface PodContainerRun {
  /** `unshare`, whose one child becomes the container's process (after setpriv and chroot exec it). */
  child: ChildProcess;
  /** The container's exact environment, as KEY=value. */
  env: string[];
  argv: string[];
  uid: number;
  gid: number;
  groups: number[];
}

export interface RunOptions {
  rootfs: string;
  image: ImageConfig;
  pod: PodSpec;
  namespace: string;
  /** Directory with token, ca.crt and namespace, bound at the service-account path. */
  serviceAccountDir: string;
  apiServer: { host: string; port: number };
  /** Arguments after the container's own (a later flag wins). */
  extraArgs?: string[];
}

const SA_PATH = "var/run/secrets/kubernetes.io/serviceaccount";

function envValue(v: EnvVar, namespace: string): string {
  if (v.value !== undefined) return v.value;
  if (v.valueFrom?.fieldRef?.fieldPath === "metadata.namespace") return namespace;
  throw new Error(`env ${v.name}: only value and fieldRef metadata.namespace are supported by this runner`);
}

/** A path inside `rootfs` with the image's own symlinks of its directories followed (Debian: /var/run → /run). */
function inRoot(rootfs: string, rel: string): string {
  let at = rootfs;
  for (const part of rel.split("/").filter(Boolean)) {
    const next = join(at, part);
    const st = lstatSync(next, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) {
      const target = readlinkSync(next);
      if (!target.startsWith("/")) throw new Error(`${rel}: relative symlink ${next} is not supported by this runner`);
      at = inRoot(rootfs, target);
    } else at = next;
  }
  return at;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function runPodContainer(o: RunOptions): PodContainerRun {
  const c = o.pod.containers[0]!;
  if (o.pod.containers.length !== 1) throw new Error("this runner runs pods of one container");
  const argv = [
    ...(c.command ?? o.image.config.Entrypoint ?? []),
    ...(c.args ?? (c.command ? [] : (o.image.config.Cmd ?? []))),
    ...(o.extraArgs ?? []),
  ];
  const env = [
    ...(o.image.config.Env ?? []),
    ...(c.env ?? []).map((v) => `${v.name}=${envValue(v, o.namespace)}`),
    `KUBERNETES_SERVICE_HOST=${o.apiServer.host}`,
    `KUBERNETES_SERVICE_PORT=${o.apiServer.port}`,
  ];
  const [imageUid, imageGid] = (o.image.config.User ?? "0:0").split(":").map(Number);
  const uid = c.securityContext?.runAsUser ?? o.pod.securityContext?.runAsUser ?? imageUid ?? 0;
  const gid = c.securityContext?.runAsGroup ?? o.pod.securityContext?.runAsGroup ?? imageGid ?? 0;
  const groups = [
    ...(o.pod.securityContext?.fsGroup !== undefined ? [o.pod.securityContext.fsGroup] : []),
    ...(o.pod.securityContext?.supplementalGroups ?? []),
  ];

  // Mount points are made before the root goes read-only, as runc makes them in the container's rootfs.
  const mounts: string[] = [];
  for (const m of c.volumeMounts ?? []) {
    const volume = o.pod.volumes?.find((v) => v.name === m.name);
    if (!volume?.emptyDir) throw new Error(`volume ${m.name}: only emptyDir volumes are supported by this runner`);
    const at = inRoot(o.rootfs, m.mountPath);
    mkdirSync(at, { recursive: true });
    mounts.push(`/usr/bin/mount -t tmpfs -o mode=0777 ${m.name} ${quote(at)}`);
  }
  const sa = inRoot(o.rootfs, SA_PATH);
  mkdirSync(sa, { recursive: true });
  mounts.push(`/usr/bin/mount --bind -o ro ${quote(o.serviceAccountDir)} ${quote(sa)}`);
  const r = quote(o.rootfs);
  const script = [
    "set -e",
    `/usr/bin/mount --bind ${r} ${r}`,
    `/usr/bin/mount -t proc proc ${quote(join(o.rootfs, "proc"))}`,
    `/usr/bin/mount --rbind /dev ${quote(join(o.rootfs, "dev"))}`,
    ...mounts,
    ...(c.securityContext?.readOnlyRootFilesystem ? [`/usr/bin/mount -o remount,bind,ro ${r}`] : []),
    // env -u PWD: the shell exported PWD, which no container runtime sets.
    `exec /usr/bin/env -u PWD /usr/bin/setpriv --no-new-privs /usr/sbin/chroot --userspec=${uid}:${gid} ` +
      `--groups=${[gid, ...groups].join(",")} ${r} ${argv.map(quote).join(" ")}`,
  ].join("\n");
  const child = spawn(
    "/usr/bin/unshare",
    ["--mount", "--propagation", "private", "--fork", "--kill-child", "/bin/sh", "-c", script],
    {
      env: Object.fromEntries(env.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)])),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return { child, env, argv, uid, gid, groups };
}

/** The pid of unshare's one child: the container's process once the exec chain has reached it. */
export function containerPid(run: PodContainerRun): number | undefined {
  const pid = run.child.pid!;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  return children.length === 1 ? Number(children[0]) : undefined;
}
