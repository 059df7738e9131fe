#!/usr/bin/env bash
# Debian packages flotilla and its tests need:
#   openssh-server  provides /usr/sbin/sshd (the git-over-ssh test server, test/support/git-ssh-server.ts)
#   openssh-client  provides ssh and ssh-keygen
#   gnupg           provides gpg (GitRepository spec.verify checks OpenPGP signatures with it)
#   chromium        the browser the dashboard tests drive (playwright-core, no downloaded browsers;
#                   test/support/browser.ts)
# Idempotent: does nothing when every package is already installed; runs `apt-get update` only when
# something is missing. Needs root, or sudo without a password prompt.
set -euo pipefail

fail() { echo "flotilla: $*" >&2; exit 1; }

# package -> a file it provides (checked first: cheap, and works even without dpkg metadata).
declare -A PROVIDES=(
  [openssh-server]=/usr/sbin/sshd
  [openssh-client]=/usr/bin/ssh-keygen
  [gnupg]=/usr/bin/gpg
  [chromium]=/usr/bin/chromium
)

missing=()
for pkg in openssh-server openssh-client gnupg chromium; do
  if [[ -x "${PROVIDES[$pkg]}" ]] && dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    continue
  fi
  missing+=("$pkg")
done

[[ ${#missing[@]} -eq 0 ]] && exit 0

command -v apt-get >/dev/null 2>&1 || fail "missing packages: ${missing[*]} (no apt-get here: install them with your system's package manager)."

if [[ $(id -u) -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  fail "missing packages: ${missing[*]} (not root and no sudo: run 'apt-get install ${missing[*]}' as root)."
fi

echo "flotilla: installing ${missing[*]}..." >&2
"${SUDO[@]}" apt-get update -qq >&2
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
