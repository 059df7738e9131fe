#!/usr/bin/env bash
# `npm test`: installs what is missing, then type-check, lint, and every test (unit + e2e on a
# local fleet of real control planes). Extra arguments go to vitest (e.g. a file filter).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-deps.sh
echo "flotilla: type-check" >&2
npx tsc -p tsconfig.json --noEmit
echo "flotilla: lint" >&2
npx eslint --max-warnings 0 . && npx prettier --check .
echo "flotilla: tests" >&2
npx vitest run "$@"
