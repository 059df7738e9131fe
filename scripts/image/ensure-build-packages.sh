#!/usr/bin/env bash
# Debian packages the image build needs (scripts/image/build.sh), installed only when missing:
#   mmdebstrap  makes the image's Debian root filesystem from Debian's packages (needs root: it runs dpkg in a chroot)
#   tar         GNU tar 1.28 or newer (--sort=name) writes the reproducible layers
set -euo pipefail

fail() { echo "flotilla image: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "building the image needs root (mmdebstrap installs Debian packages into a chroot): run it as root"
command -v tar >/dev/null && tar --sort=name --version >/dev/null 2>&1 || fail "GNU tar with --sort=name is missing: apt-get install tar"
command -v mmdebstrap >/dev/null 2>&1 && exit 0
command -v apt-get >/dev/null 2>&1 || fail "mmdebstrap is missing and there is no apt-get here: install mmdebstrap"
echo "flotilla image: installing mmdebstrap..." >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >&2
