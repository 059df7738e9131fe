#!/usr/bin/env bash
# `npm run image`: flotilla's container image as an OCI image layout archive, built with no container daemon
# (none can run on these machines). Three layers, each a reproducible tar (scripts/image/oci-layout.mjs):
#   base     Debian bookworm from Debian's packages (mmdebstrap, variant essential + git, ssh, gpg, CA certificates)
#   runtime  /usr/local/bin/node (this machine's Node.js, which needs only libc/libstdc++/libgcc from base), helm
#            and sops (the pinned ones tools/build.sh builds)
#   app      /app (dist/ compiled afresh, production node_modules from `npm ci --omit=dev`), /usr/local/bin/flotilla
# Same commit, same Debian packages, same node/helm binaries: same digest (SOURCE_DATE_EPOCH is the commit's time).
# usage: npm run image [-- --check-reproducible]   (builds twice and fails unless both digests agree)
#        npm run image [-- --push <registry>[/<path>]]  (then copies it to <registry>[/<path>]/flotilla:<version>,
#        where `flotilla install --registry <registry>[/<path>]` looks; scripts/image/push.mjs)
# The last line printed is the archive's path. docs/decisions/0038-container-image.md says why it is built this way.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

fail() { echo "flotilla image: $*" >&2; exit 1; }
check=0
push=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --check-reproducible) check=1 ;;
    --push)
      [[ $# -ge 2 ]] || fail "--push needs a registry, e.g. --push 127.0.0.1:5000/mirror"
      push="$2"
      shift
      ;;
    *) fail "unknown option '$1' (the options are --check-reproducible and --push <registry>)" ;;
  esac
  shift
done

bash scripts/image/ensure-build-packages.sh
tools_bin="${FLOTILLA_TOOLS_DIR:-$HOME/.cache/flotilla/tools}/bin"
helm="$tools_bin/helm"
[[ -x "$helm" ]] || bash tools/build.sh helm
# The HelmRelease controller's resident helm engine (decision 0042), from the same helm modules.
helm_engine="$tools_bin/helm-engine"
[[ -x "$helm_engine" ]] || bash tools/build.sh helm-engine
# sops decrypts a Kustomization's spec.decryption (decision 0036); the pinned build, as helm.
sops="$tools_bin/sops"
[[ -x "$sops" ]] || bash tools/build.sh sops
node=/usr/bin/node
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || fail "$node is $($node --version): the image needs Node.js 20.19 or newer"

version="$(node -p 'require("./package.json").version')"
revision="$(git rev-parse HEAD)"
export SOURCE_DATE_EPOCH="$(git log -1 --format=%ct)"
debs="${FLOTILLA_IMAGE_DEB_CACHE:-$HOME/.cache/flotilla/image/debs}"
mkdir -p "$debs" dist/image
work="$(mktemp -d /tmp/flotilla-image.XXXXXX)"
# A build stopped midway can leave mmdebstrap's /proc, /sys and /dev mounts in the root filesystem: unmount
# them (deepest first) before removing anything, and never cross into another filesystem.
cleanup() {
  { grep -o " $work/[^ ]*" /proc/mounts || true; } | sort -r | while read -r m; do umount -l "$m" || true; done
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT

# The Debian root filesystem. Documentation, manuals and translations are left out (dpkg path-exclude); the .deb
# files are kept in $debs between builds so a rebuild downloads only what changed on the mirror.
base_rootfs() {
  local dir="$1"
  mmdebstrap --quiet --mode=root --variant=essential --architectures=amd64 \
    --include=ca-certificates,git,openssh-client,gpg,libstdc++6 \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='force-unsafe-io' \
    --skip=essential/unlink \
    --setup-hook="mkdir -p \"\$1\"/var/cache/apt/archives/" \
    --setup-hook="sync-in $debs /var/cache/apt/archives/" \
    --customize-hook="sync-out /var/cache/apt/archives $debs" \
    bookworm "$dir" http://deb.debian.org/debian >&2
  # What the build left that a container runtime provides or that differs from run to run: device nodes, the
  # build machine's hostname and resolver, downloaded packages, logs of the installation.
  find "$dir/dev" -mindepth 1 -delete
  rm -f "$dir/etc/hostname" "$dir/etc/resolv.conf" "$dir"/var/cache/apt/archives/*.deb "$dir"/var/cache/debconf/*-old
  rm -rf "$dir"/var/log/apt/* "$dir"/var/cache/ldconfig/* "$dir"/var/lib/apt/lists/*
  mkdir -p "$dir/data"
}

# The Node.js runtime, helm, the helm engine and sops.
runtime_layer() {
  local dir="$1"
  install -D -m 0755 "$node" "$dir/usr/local/bin/node"
  install -D -m 0755 "$helm" "$dir/usr/local/bin/helm"
  install -D -m 0755 "$helm_engine" "$dir/usr/local/bin/helm-engine"
  install -D -m 0755 "$sops" "$dir/usr/local/bin/sops"
}

# flotilla itself: compiled from src/ into a clean directory (no stale files of an older dist/), its production
# dependencies exactly as package-lock.json pins them, and the `flotilla` command.
app_layer() {
  local dir="$1" npmdir="$work/npm"
  mkdir -p "$dir/app/bin" "$npmdir"
  npx tsc -p tsconfig.build.json --outDir "$dir/app/dist"
  cp bin/flotilla.js "$dir/app/bin/"
  cp package.json package-lock.json "$npmdir/"
  (cd "$npmdir" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline >&2)
  cp package.json "$dir/app/"
  mv "$npmdir/node_modules" "$dir/app/node_modules"
  install -D -m 0755 /dev/stdin "$dir/usr/local/bin/flotilla" <<'EOF'
#!/bin/sh
exec /usr/local/bin/node /app/bin/flotilla.js "$@"
EOF
}

build_once() {
  local out="$1" dir="$work/$2"
  local t=$SECONDS
  mkdir -p "$dir"
  base_rootfs "$dir/base"
  echo "flotilla image: base root filesystem in $((SECONDS - t)) s" >&2
  runtime_layer "$dir/runtime"
  app_layer "$dir/app"
  echo "flotilla image: app staged at $((SECONDS - t)) s" >&2
  digest="$(node scripts/image/oci-layout.mjs --out "$out" --version "$version" --revision "$revision" \
    --layer "$dir/base:keep-owners" --layer "$dir/runtime" --layer "$dir/app")"
  rm -rf "$dir"
}

started=$SECONDS
archive="dist/image/flotilla-$version.oci.tar"
build_once "$archive" one
first="$digest"
echo "flotilla image: ghcr.io/flotilla-dev/flotilla:$version@$digest (amd64), built in $((SECONDS - started)) s," \
  "archive $(du -m "$archive" | cut -f1) MiB" >&2
if [[ $check -eq 1 ]]; then
  build_once "$work/second.oci.tar" two
  [[ "$digest" == "$first" ]] || fail "not reproducible: two builds of $revision gave manifests $first and $digest"
  cmp -s "$archive" "$work/second.oci.tar" || fail "not reproducible: the two archives differ though the manifests agree"
  echo "flotilla image: reproducible: a second build gave the same manifest $digest and the same archive" >&2
fi
if [[ -n "$push" ]]; then
  node scripts/image/push.mjs "$archive" "$push" >&2
fi
realpath "$archive"
