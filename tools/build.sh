#!/usr/bin/env bash
# Builds flotilla's upstream toolchain from Go modules (never from release downloads):
#   flotilla-kube  etcd + kube-apiserver + kube-controller-manager + kube-scheduler + kubectl
#   kwok, helm, kustomize
#   helm-engine  helm v4's actions resident behind a JSON protocol (the HelmRelease controller's engine, decision 0042)
#   registry  the CNCF distribution registry (OCI tests and the local fleet serve artifacts from it)
#   flux      the flux CLI (tests check that flotilla and Flux read each other's OCI artifacts)
#   resourceset-template  the Flux Operator's ResourceSet template setup (the parity oracle of flotilla's engine)
#   sops, age, age-keygen  the oracle of the SOPS decryption parity tests (and age keys for them)
#   alertmanager  Prometheus Alertmanager (the alertmanager notification provider's tests deliver to it)
# Binaries go to $FLOTILLA_TOOLS_DIR/bin (default ~/.cache/flotilla/tools/bin), outside the work tree,
# so a fresh clone on the same machine (CI) reuses them. A stamp per tool (hash of its pins, go.mod,
# go.sum, sources, build flags and Go version) makes an unchanged tool a no-op.
#
# usage: tools/build.sh [--check] [tool...]
#   --check   exit 0 if every named tool is built and current, 1 otherwise; builds nothing
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"
tools_dir="${FLOTILLA_TOOLS_DIR:-$HOME/.cache/flotilla/tools}"
bin="$tools_dir/bin"
all_tools=(controlplane kwok helm helm-engine kustomize registry flux resourceset-template sops age age-keygen alertmanager)

die() { echo "flotilla tools: error: $*" >&2; exit 1; }

check_only=0
if [[ "${1:-}" == "--check" ]]; then check_only=1; shift; fi
tools=("$@")
[[ ${#tools[@]} -gt 0 ]] || tools=("${all_tools[@]}")

if ! command -v go >/dev/null 2>&1; then
  # Without Go we cannot tell whether a built tool is current; built binaries are still usable.
  if (( check_only )); then
    for t in "${tools[@]}"; do [[ -x "$bin/$([[ "$t" == controlplane ]] && echo flotilla-kube || echo "$t")" ]] || exit 1; done
    exit 0
  fi
  die "the Go toolchain is missing: 'go' is not on PATH. Install Go 1.26 or newer (https://go.dev/doc/install) and run 'npm run tools' again."
fi
go_version="$(go env GOVERSION)"
go_minor="$(sed -E 's/^go1\.([0-9]+).*/\1/' <<<"$go_version")"
if [[ ! "$go_minor" =~ ^[0-9]+$ ]] || (( go_minor < 26 )); then
  die "Go 1.26 or newer is required to build the Kubernetes $KUBERNETES_VERSION toolchain; found $go_version at $(command -v go)."
fi
command -v git >/dev/null 2>&1 || die "git is missing: install it (apt-get install git) and run 'npm run tools' again."

export GOTOOLCHAIN=local GOFLAGS="-mod=readonly -trimpath -buildvcs=false" CGO_ENABLED=0

ldflags_for() {
  case "$1" in
    controlplane)
      local v="${KUBERNETES_VERSION#v}" major minor
      major="${v%%.*}"; minor="${v#*.}"; minor="${minor%%.*}"
      local x=""
      for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
        x+=" -X $pkg.gitVersion=$KUBERNETES_VERSION -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
        x+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
      done
      echo "-s -w$x" ;;
    kwok) echo "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${KWOK_VERSION#v}" ;;
    helm) echo "-s -w -X helm.sh/helm/v4/internal/version.version=$HELM_VERSION" ;;
    helm-engine) echo "-s -w -X main.version=$HELM_VERSION" ;;
    kustomize) echo "-s -w -X sigs.k8s.io/kustomize/api/provenance.version=$KUSTOMIZE_VERSION" ;;
    registry) echo "-s -w -X github.com/distribution/distribution/v3/version.version=$REGISTRY_VERSION" ;;
    flux) echo "-s -w -X main.VERSION=${FLUX_VERSION#v}" ;;
    resourceset-template) echo "-s -w" ;;
    sops) echo "-s -w" ;; # sops reports its version from version.Version, a constant in the module
    age | age-keygen) echo "-s -w -X main.Version=$AGE_VERSION" ;;
    alertmanager) echo "-s -w -X github.com/prometheus/common/version.Version=${ALERTMANAGER_VERSION#v}" ;;
  esac
}
package_for() {
  case "$1" in
    controlplane) echo "." ;;
    kwok) echo "sigs.k8s.io/kwok/cmd/kwok" ;;
    helm) echo "helm.sh/helm/v4/cmd/helm" ;;
    helm-engine) echo "." ;;
    kustomize) echo "sigs.k8s.io/kustomize/kustomize/v5" ;;
    registry) echo "." ;; # cmd/registry's main plus `registry htpasswd` (tools/registry/main.go)
    flux) echo "github.com/fluxcd/flux2/v2/cmd/flux" ;;
    resourceset-template) echo "." ;;
    sops) echo "github.com/getsops/sops/v3/cmd/sops" ;;
    age) echo "filippo.io/age/cmd/age" ;;
    age-keygen) echo "filippo.io/age/cmd/age-keygen" ;;
    alertmanager) echo "github.com/prometheus/alertmanager/cmd/alertmanager" ;;
  esac
}
version_of() {
  case "$1" in
    controlplane) echo "$KUBERNETES_VERSION (etcd $ETCD_VERSION)" ;;
    kwok) echo "$KWOK_VERSION" ;; helm | helm-engine) echo "$HELM_VERSION" ;; kustomize) echo "$KUSTOMIZE_VERSION" ;;
    registry) echo "$REGISTRY_VERSION" ;; flux) echo "$FLUX_VERSION" ;;
    resourceset-template) echo "(flux-operator $FLUX_OPERATOR_VERSION)" ;;
    sops) echo "$SOPS_VERSION" ;; age | age-keygen) echo "$AGE_VERSION" ;;
    alertmanager) echo "$ALERTMANAGER_VERSION" ;;
  esac
}
# The wrapper module of each tool; tools/flux/ holds the benchmark controllers (tools/build-flux.sh).
# age and age-keygen are two commands of one module, built from one wrapper (tools/age/).
dir_for() {
  case "$1" in flux) echo "$here/flux-cli" ;; age-keygen) echo "$here/age" ;; *) echo "$here/$1" ;; esac
}
output_for() { [[ "$1" == controlplane ]] && echo flotilla-kube || echo "$1"; }

# The pins a tool's stamp covers: the shared block of versions.env, plus its own pin when it sits below
# the marker (so a new tool there does not make the Kubernetes toolchain look outdated).
pins_for() {
  sed '/^# --- tools stamped by their own pin only ---$/,$d' "$here/versions.env"
  case "$1" in
    registry) grep '^REGISTRY_VERSION=' "$here/versions.env" ;;
    flux) grep '^FLUX_VERSION=' "$here/versions.env" ;;
    resourceset-template) grep '^FLUX_OPERATOR_VERSION=' "$here/versions.env" ;;
    sops) grep '^SOPS_VERSION=' "$here/versions.env" ;;
    age | age-keygen) grep '^AGE_VERSION=' "$here/versions.env" ;;
    alertmanager) grep '^ALERTMANAGER_VERSION=' "$here/versions.env" ;;
  esac
}

# flux2's cmd/flux embeds manifests/*.yaml, which its Makefile generates from GitHub release downloads;
# the module zip holds none, so the module does not build as published. tools/flux-cli/go.mod replaces
# it with ./flux2: the module as downloaded (and verified) by Go, plus one placeholder there. Only
# `flux install`'s offline manifests are missing from that binary; flotilla's tests use the artifact verbs.
prepare_flux_source() {
  local dir="$here/flux-cli/flux2" src scratch
  scratch="$(mktemp -d)"
  src="$(cd "$scratch" && GOFLAGS= go mod download -json "github.com/fluxcd/flux2/v2@$FLUX_VERSION" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  rmdir "$scratch"
  [[ -d "$src/cmd/flux" ]] || die "could not download github.com/fluxcd/flux2/v2@$FLUX_VERSION (GOPROXY=$(go env GOPROXY))."
  rm -rf "$dir"
  # Only for the build: left in the work tree, its YAML and Markdown would meet `prettier --check .`.
  trap 'rm -rf "$here/flux-cli/flux2"' EXIT
  cp -R "$src" "$dir"
  chmod -R u+w "$dir"
  mkdir -p "$dir/cmd/flux/manifests"
  printf '# Not bundled: flotilla builds flux for its artifact verbs; use `flux install --manifests <dir>`.\n' \
    > "$dir/cmd/flux/manifests/not-bundled.yaml"
}

# Alertmanager's ui/ embeds app/dist, which its Makefile builds with npm/elm; the module zip holds none.
# As for flux: tools/alertmanager/go.mod replaces the module with ./alertmanager, the verified module plus
# one placeholder per UI root. The API (/api/v2) the tests use is complete; only the web UI pages are absent.
prepare_alertmanager_source() {
  local dir="$here/alertmanager/alertmanager" src scratch
  scratch="$(mktemp -d)"
  src="$(cd "$scratch" && GOFLAGS= go mod download -json "github.com/prometheus/alertmanager@$ALERTMANAGER_VERSION" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  rmdir "$scratch"
  [[ -d "$src/cmd/alertmanager" ]] || die "could not download github.com/prometheus/alertmanager@$ALERTMANAGER_VERSION (GOPROXY=$(go env GOPROXY))."
  rm -rf "$dir"
  # Both copies: a run that builds flux and alertmanager removes each (one EXIT trap per shell).
  trap 'rm -rf "$here/flux-cli/flux2" "$here/alertmanager/alertmanager"' EXIT
  cp -R "$src" "$dir"
  chmod -R u+w "$dir"
  for ui in elm mantine; do
    mkdir -p "$dir/ui/app/dist/$ui"
    printf 'Not bundled: flotilla builds Alertmanager for its API only.\n' > "$dir/ui/app/dist/$ui/not-bundled.txt"
  done
}

stamp_for() {
  local t="$1"
  {
    pins_for "$t"
    echo "$go_version $(ldflags_for "$t") $(package_for "$t")"
    cat "$(dir_for "$t")"/go.mod "$(dir_for "$t")"/go.sum
    cat "$(dir_for "$t")"/*.go 2>/dev/null || true
  } | sha256sum | cut -d' ' -f1
}

is_current() {
  local t="$1" out
  out="$(output_for "$t")"
  [[ -x "$bin/$out" && -f "$bin/.$out.stamp" && "$(cat "$bin/.$out.stamp")" == "$(stamp_for "$t")" ]]
}

stages_current() {
  local stages="$tools_dir/share/kwok-stages.yaml"
  [[ -s "$stages" && "$(cat "$stages.stamp" 2>/dev/null)" == "$(cat "$here"/kwok-stages/*.yaml | sha256sum | cut -d' ' -f1)" ]]
}

if (( check_only )); then
  for t in "${tools[@]}"; do is_current "$t" || exit 1; done
  if [[ " ${tools[*]} " == *" kwok "* ]]; then stages_current || exit 1; fi
  exit 0
fi

mkdir -p "$bin" 2>/dev/null || die "cannot create $bin: set FLOTILLA_TOOLS_DIR to a writable directory."
# One builder at a time per tools dir: tests and the demo may both ask for a build.
exec 9>"$tools_dir/.build.lock"
if ! flock -n 9; then
  echo "flotilla tools: another build is running in $tools_dir; waiting for it..." >&2
  flock 9
fi

# Prints a progress line every 20 s while `go build -v` reports compiled packages on stdin.
progress() {
  local t="$1" total="$2" n=0 start last line
  start=$(date +%s); last=$start
  while IFS= read -r line; do
    [[ "$line" == *"#"* || "$line" == *":"* ]] && echo "$line" >&2
    n=$((n + 1))
    local now; now=$(date +%s)
    if (( now - last >= 20 )); then
      last=$now
      printf 'flotilla tools: %s: compiled %d packages (of at most %d), %dm%02ds elapsed\n' \
        "$t" "$n" "$total" $(((now - start) / 60)) $(((now - start) % 60)) >&2
    fi
  done
}

for t in "${tools[@]}"; do
  out="$(output_for "$t")"
  if is_current "$t"; then
    echo "flotilla tools: $out is up to date ($bin/$out)" >&2
    continue
  fi
  echo "flotilla tools: building $out $(version_of "$t") from Go modules (a cold build of the whole toolchain takes 20-45 min on 2 cores)..." >&2
  [[ "$t" != flux ]] || prepare_flux_source
  [[ "$t" != alertmanager ]] || prepare_alertmanager_source
  cd "$(dir_for "$t")"
  go mod download >&2 || die "downloading Go modules for $t failed: is the Go module proxy reachable? (GOPROXY=$(go env GOPROXY))"
  pkg="$(package_for "$t")"
  total="$(go list -deps "$pkg" 2>/dev/null | wc -l)"
  start=$(date +%s)
  set +o pipefail
  # `|| code=$?`: under set -e a failing go build would end the group before its exit code is written.
  { code=0; go build -v -ldflags "$(ldflags_for "$t")" -o "$bin/$out.tmp" "$pkg" 2>&1 || code=$?; echo "exit:$code" > "$bin/.$out.rc"; } | progress "$out" "$total"
  set -o pipefail
  rc="$(sed 's/exit://' "$bin/.$out.rc")"; rm -f "$bin/.$out.rc"
  [[ "$rc" == 0 ]] || die "building $out failed (go build exit $rc); see the compiler output above."
  mv -f "$bin/$out.tmp" "$bin/$out"
  stamp_for "$t" > "$bin/.$out.stamp"
  echo "flotilla tools: built $out in $(( $(date +%s) - start ))s" >&2
done

# kwok needs Stage definitions to move nodes and pods through their lifecycle; use upstream's own
# "fast" set (node-initialize, node heartbeat with lease, pod ready/complete/delete) from the module.
# Our own stages (tools/kwok-stages/) are appended after upstream's.
stages="$tools_dir/share/kwok-stages.yaml"
if [[ " ${tools[*]} " == *" kwok "* ]] && { [[ "$stages" -ot "$bin/kwok" ]] || ! stages_current; }; then
  kwok_dir="$(cd "$here/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)"
  mkdir -p "$tools_dir/share"
  for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
           pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
    echo "---"; cat "$kwok_dir/kustomize/stage/$f"
  done > "$stages.tmp"
  for f in "$here"/kwok-stages/*.yaml; do echo "---"; cat "$f"; done >> "$stages.tmp"
  mv -f "$stages.tmp" "$stages"
  cat "$here"/kwok-stages/*.yaml | sha256sum | cut -d' ' -f1 > "$stages.stamp"
fi

# Upstream names for the multi-call binary, so `kubectl` and friends work as users expect.
if [[ -x "$bin/flotilla-kube" ]]; then
  for c in etcd kube-apiserver kube-controller-manager kube-scheduler kubectl; do
    ln -sfn flotilla-kube "$bin/$c"
  done
fi
