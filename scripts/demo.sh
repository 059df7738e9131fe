#!/usr/bin/env bash
# `npm run demo`: builds what is missing, starts a local fleet (management plane + 2 tenant
# control planes, Kamaji style), then runs `flotilla demo`: a fleet repository served over Git,
# the controllers, one Kustomization per tenant plane, a rollout and drift correction.
# `npm run demo -- --exit` stops the fleet afterwards.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# What the demo runs: the control planes, kwok, helm, kustomize and the OCI registry (not the flux CLI).
bash scripts/ensure-deps.sh controlplane kwok helm kustomize registry

dir="${FLOTILLA_DEMO_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/flotilla/local}"
flotilla() { node bin/flotilla.js "$@"; }

if flotilla local status --dir "$dir" >/dev/null 2>&1; then
  echo "► a local fleet is already running in $dir" >&2
  flotilla local status --dir "$dir"
else
  flotilla local up --tenants 2 --dir "$dir"
fi
echo
flotilla demo --dir "$dir"

if [[ " $* " == *" --exit "* ]]; then
  flotilla local down --dir "$dir"
  exit 0
fi
cat <<EOT

The fleet keeps running. Also try:
  export KUBECONFIG=$dir/kubeconfigs/management.kubeconfig
  $HOME/.cache/flotilla/tools/bin/kubectl get tenantcontrolplanes,secrets -n tenants
  $HOME/.cache/flotilla/tools/bin/kubectl --kubeconfig $dir/kubeconfigs/tenant1.kubeconfig get nodes
  node bin/flotilla.js local status --dir $dir
Stop it with:
  node bin/flotilla.js local down --dir $dir
EOT
