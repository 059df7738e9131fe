// Confinement to one directory tree (a source artifact's root), with symlinks resolved: Flux reads
// artifacts through a file system that refuses every path outside the root (fluxcd/pkg/kustomize's
// fsSecure, helm's secure loader), so a tenant can name neither another tenant's unpacked artifact
// (`../../other`) nor a link leading there — in a kustomization, a values file, a chart path or an include.
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

/** True when `path` (absolute, normalised) is `root` or lies below it. */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export type Confined = { real: string } | { outside: string } | { missing: true };

const MAX_LINKS = 40; // as Linux's ELOOP bound

/**
 * Where `path` (absolute) really leads, judged against `root` (a real path) without ever touching
 * anything outside it: the walk follows links one component at a time and stops at the first step
 * that leaves the root, so a refusal says nothing about what exists out there.
 */
export function confinedRealpath(path: string, root: string): Confined {
  if (!isInside(path, root)) return { outside: path };
  try {
    // The fast path (one system call): a path that resolves is judged by where it lands.
    const real = realpathSync.native(path);
    return isInside(real, root) ? { real } : { outside: real };
  } catch {
    // It does not resolve: tell "missing" from "a link leading out" without following it out.
  }
  let current = root;
  const pending = relative(root, path).split(sep).filter(Boolean);
  let links = 0;
  while (pending.length) {
    const part = pending.shift()!;
    if (part === ".") continue;
    const next = part === ".." ? dirname(current) : resolve(current, part);
    if (!isInside(next, root)) return { outside: next };
    const st = lstatSync(next, { throwIfNoEntry: false });
    if (!st) return { missing: true };
    if (!st.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) return { missing: true };
    // The link's target, followed component by component from the link's real directory (a `..`
    // after a link goes up from where that link led, as the kernel goes).
    const target = readlinkSync(next);
    if (isAbsolute(target)) {
      if (!target.startsWith(root + sep) && target !== root) return { outside: resolve(target) };
      current = root;
      pending.unshift(...target.slice(root.length).split(sep).filter(Boolean));
    } else pending.unshift(...target.split(sep).filter(Boolean));
  }
  return { real: current };
}
