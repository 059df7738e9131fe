#!/usr/bin/env bash
# `npm test`: installs what is missing, then type-check, lint, and every test: unit and parity first, then
# the two end-to-end lanes at the same time, each on a local fleet of its own (vitest.config.ts says which
# files are the minute-long `e2e-long` lane; `npm run test:long` runs it alone). Extra arguments go to every
# vitest run (e.g. a file filter). Prints one closing line "N passed, N failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-deps.sh
echo "flotilla: type-check" >&2
npx tsc -p tsconfig.json --noEmit
echo "flotilla: lint" >&2
npx eslint --max-warnings 0 . && npx prettier --check .

summary="$(mktemp)"
long_log="$(mktemp)"
trap 'rm -f "$summary" "$summary.failed" "$long_log"' EXIT
export FLOTILLA_TEST_SUMMARY_FILE="$summary"
status=0
echo "flotilla: unit and parity tests" >&2
npx vitest run --project unit --project parity --passWithNoTests "$@" || status=1

# The container image (a full run only, not a file filter): built twice by `npm run test:image`, which fails
# unless both builds give the same digest, then run as the pod `flotilla install --export` describes on a fleet
# of its own (vitest.image.config.ts). Needs root, as the rest of the suite does. It runs beside the e2e lanes
# (its ten minutes are mostly dpkg and gzip) and its output follows theirs.
runs=3
image_log="$(mktemp)"
image_pid=""
if [[ $# -eq 0 ]]; then
  runs=4
  echo "flotilla: the container image (npm run test:image), beside the e2e lanes" >&2
  npm run -s test:image >"$image_log" 2>&1 &
  image_pid=$!
fi

echo "flotilla: end-to-end tests, two lanes (the e2e-long lane's output follows the e2e lane's)" >&2
npx vitest run --project e2e-long --passWithNoTests "$@" >"$long_log" 2>&1 &
long_pid=$!
# If this script is stopped, the long lane and the image run go too (their global setups stop their fleets on SIGTERM).
trap 'kill "$long_pid" $image_pid 2>/dev/null || true; rm -f "$summary" "$summary.failed" "$long_log" "$image_log"' EXIT
npx vitest run --project e2e --passWithNoTests "$@" || status=1
wait "$long_pid" || status=1
echo "flotilla: the e2e-long lane:" >&2
cat "$long_log"
if [[ -n "$image_pid" ]]; then
  wait "$image_pid" || status=1
  echo "flotilla: the container image:" >&2
  cat "$image_log"
fi

# Which tests failed, named last so the tail of a long log says it.
if [[ -s "$summary.failed" ]]; then
  echo
  cat "$summary.failed"
fi
# A run that ended without counts (its fleet never started, vitest crashed) counts as one failure.
awk -v runs="$runs" '{ p += $1; f += $2; s += $3 } END { f += (runs > NR ? runs - NR : 0); printf "\n%d passed, %d failed%s\n", p, f, (s ? sprintf(", %d skipped", s) : "") }' "$summary"
exit "$status"
