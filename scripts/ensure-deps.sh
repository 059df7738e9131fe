#!/usr/bin/env bash
# Everything flotilla needs, installed by the project itself: npm packages (npm ci), the upstream
# tools built from Go modules (tools/build.sh, cached), and the compiled CLI (dist/).
# Safe to run repeatedly: each step is skipped when already current.
# usage: scripts/ensure-deps.sh [tool...]   (default: every tool; the demo names the ones it runs, so a first
# `npm run demo` does not wait for the flux CLI, which only the interop tests need)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() { echo "flotilla: $*" >&2; exit 1; }

command -v node >/dev/null 2>&1 || fail "Node.js is missing: install Node.js 20.19 or newer."
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || fail "Node.js $(node --version) is too old: flotilla needs 20.19 or newer."
command -v npm >/dev/null 2>&1 || fail "npm is missing: install npm (it ships with Node.js)."
command -v git >/dev/null 2>&1 || fail "git is missing: install it (apt-get install git)."

# npm packages: reinstall when the lockfile changed since the last install.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "flotilla: installing npm packages (npm ci)..." >&2
  npm ci --no-audit --no-fund >&2
fi

# Debian packages the tests use (openssh-server for the SSH git server); installed only when missing.
bash scripts/ensure-system-packages.sh

bash tools/build.sh "$@"

# The CLI runs from dist/; rebuild when any source is newer than the last build.
if [[ ! -f dist/cli/main.js ]] || [[ -n "$(find src tsconfig.json tsconfig.build.json package.json -newer dist/cli/main.js -print -quit)" ]]; then
  echo "flotilla: compiling TypeScript..." >&2
  npx tsc -p tsconfig.build.json
fi
