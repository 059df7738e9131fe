#!/usr/bin/env bash
# Builds Flux's own controllers from Go modules (never from release downloads), for benchmarks only:
#   flux-source-controller, flux-kustomize-controller, flux-helm-controller
# Not part of `npm test` and not run by scripts/ensure-deps.sh. Pins live in tools/flux/versions.env.
#
# Each controller's go.mod has replace directives (./api, go-digest, kustomize, Helm fork), so
# `go install pkg@version` refuses it. tools/flux/<controller>/ is a wrapper module that requires the
# controller at its tag and repeats those replaces with published versions; `go build` runs there.
# Binaries go to $FLOTILLA_TOOLS_DIR/bin (default ~/.cache/flotilla/tools/bin), beside tools/build.sh's.
# A stamp per binary (hash of the pins, the wrapper's go.mod/go.sum/tools.go, this script and the Go
# version) makes an unchanged controller a no-op.
#
# A controller that fails to build does not stop the others: the reason (the last lines of Go's
# error) is printed and kept in $bin/.flux-<controller>.error for the benchmark to report; this
# script exits non-zero only when every named controller failed.
#
# usage: tools/build-flux.sh [--check | --update] [controller...]
#   controller  source-controller | kustomize-controller | helm-controller (or source | kustomize | helm)
#   --check     exit 0 if every named controller is built and current, 1 otherwise; builds nothing
#   --update    regenerate tools/flux/<controller>/go.mod and go.sum from the pins in versions.env,
#               copying the replaces from the controller's own go.mod at that tag (needs the Go proxy)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
flux_dir="$here/flux"
# shellcheck source=flux/versions.env
source "$flux_dir/versions.env"
tools_dir="${FLOTILLA_TOOLS_DIR:-$HOME/.cache/flotilla/tools}"
bin="$tools_dir/bin"
all_controllers=(source-controller kustomize-controller helm-controller)

say() { echo "flotilla flux: $*" >&2; }
die() { echo "flotilla flux: error: $*" >&2; exit 1; }

mode=build
case "${1:-}" in
  --check) mode=check; shift ;;
  --update) mode=update; shift ;;
esac
controllers=()
for a in "$@"; do
  c="${a#flux-}"; [[ "$c" == *-controller ]] || c="$c-controller"
  [[ " ${all_controllers[*]} " == *" $c "* ]] || die "unknown controller '$a': expected one of ${all_controllers[*]}."
  controllers+=("$c")
done
[[ ${#controllers[@]} -gt 0 ]] || controllers=("${all_controllers[@]}")

module_for() { echo "github.com/fluxcd/$1"; }
output_for() { echo "flux-$1"; }
version_for() {
  case "$1" in
    source-controller) echo "$SOURCE_CONTROLLER_VERSION" ;;
    kustomize-controller) echo "$KUSTOMIZE_CONTROLLER_VERSION" ;;
    helm-controller) echo "$HELM_CONTROLLER_VERSION" ;;
  esac
}
ldflags="-s -w"

if ! command -v go >/dev/null 2>&1; then
  # Without Go we cannot tell whether a built controller is current; built binaries are still usable.
  if [[ "$mode" == check ]]; then
    for c in "${controllers[@]}"; do [[ -x "$bin/$(output_for "$c")" ]] || exit 1; done
    exit 0
  fi
  die "the Go toolchain is missing: 'go' is not on PATH. Install Go 1.26 or newer (https://go.dev/doc/install) and run 'npm run build:flux' again."
fi
go_version="$(go env GOVERSION)"
go_minor="$(sed -E 's/^go1\.([0-9]+).*/\1/' <<<"$go_version")"
if [[ ! "$go_minor" =~ ^[0-9]+$ ]] || (( go_minor < 26 )); then
  die "Go 1.26 or newer is required to build the Flux controllers; found $go_version at $(command -v go)."
fi

export GOTOOLCHAIN=local GOFLAGS="-mod=readonly -trimpath -buildvcs=false" CGO_ENABLED=0

stamp_for() {
  local c="$1"
  {
    echo "$c $(version_for "$c") $go_version $ldflags"
    cat "$flux_dir/$c/go.mod" "$flux_dir/$c/go.sum" "$flux_dir/$c/tools.go" "$here/build-flux.sh" 2>/dev/null
  } | sha256sum | cut -d' ' -f1
}

is_current() {
  local c="$1" out
  out="$(output_for "$c")"
  [[ -x "$bin/$out" && -f "$bin/.$out.stamp" && -f "$flux_dir/$c/go.mod" \
     && "$(cat "$bin/.$out.stamp")" == "$(stamp_for "$c")" ]]
}

# The version of the controller the wrapper's go.mod requires (empty if none).
required_version() {
  awk -v m="$(module_for "$1")" '
    /^require[ \t]*\(/ { block = 1; next }
    block && /^\)/ { block = 0; next }
    block && $1 == m { print $2; exit }
    /^require[ \t]/ && $2 == m { print $3; exit }
  ' "$flux_dir/$1/go.mod"
}

# Prints the replace directives of a go.mod, one "old [oldver] => new [newver]" per line.
replaces_of() {
  awk '
    { sub(/\/\/.*/, "") }
    /^replace[ \t]*\(/ { block = 1; next }
    block && /^[ \t]*\)/ { block = 0; next }
    block && /=>/ { sub(/^[ \t]+/, ""); sub(/[ \t]+$/, ""); print; next }
    /^replace[ \t]/ && /=>/ { sub(/^replace[ \t]+/, ""); sub(/[ \t]+$/, ""); print }
  ' "$1"
}

update_wrapper() {
  local c="$1" v mod upstream dir
  v="$(version_for "$c")"; mod="$(module_for "$c")"; dir="$flux_dir/$c"
  say "updating tools/flux/$c for $mod $v..."
  mkdir -p "$dir"
  # Module queries run outside any module, so the wrapper's own go.mod (maybe stale) plays no part.
  local scratch; scratch="$(mktemp -d)"
  upstream="$(cd "$scratch" && GOFLAGS= go mod download -json "$mod@$v" | sed -n 's/^[ \t]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')"
  [[ -f "$upstream" ]] || die "could not download $mod@$v from the Go module proxy (GOPROXY=$(go env GOPROXY))."
  local upstream_go; upstream_go="$(awk '$1 == "go" { print $2; exit }' "$upstream")"
  # Like replace, these apply only in the main module; say so rather than build something else quietly.
  if grep -qE '^[[:space:]]*(exclude|godebug)([[:space:](]|$)' "$upstream"; then
    say "warning: $mod@$v's go.mod has exclude or godebug directives, which a wrapper module does not inherit; copy them into tools/flux/$c/go.mod by hand."
  fi
  local replaces="" old new
  while IFS= read -r line; do
    old="${line%%=>*}"; new="${line#*=>}"
    old="$(xargs <<<"$old")"; new="$(xargs <<<"$new")"
    if [[ "$new" == ./* || "$new" == ../* ]]; then
      # A directory of the controller's repo: its submodule, published under the same tag (api/vX.Y.Z).
      local sub="${new#./}"; sub="${sub%/}"
      [[ "$new" != ../* ]] || die "$mod@$v replaces $old with $new, outside its repository: cannot reproduce that replace."
      (cd "$scratch" && GOFLAGS= go list -m "$mod/$sub@$v") >/dev/null 2>&1 \
        || die "$mod@$v replaces $old with $new, but $mod/$sub has no published version $v ($sub/$v tag)."
      new="$mod/$sub $v"
    fi
    replaces+=$'\t'"$old => $new"$'\n'
  done < <(replaces_of "$upstream")
  rmdir "$scratch"
  {
    echo "// Wrapper module that builds $mod $v (flux-$c) for benchmarks: see tools/build-flux.sh."
    echo "// Generated by \`bash tools/build-flux.sh --update $c\`; the replaces repeat those of the"
    echo "// controller's own go.mod (go $upstream_go) at $v, with ./ paths mapped to their published submodules."
    echo "module flotilla.dev/tools/flux/$c"
    echo
    echo "go 1.26.0"
    echo
    echo "require $mod $v"
    if [[ -n "$replaces" ]]; then
      echo
      echo "replace ("
      printf '%s' "$replaces"
      echo ")"
    fi
  } > "$dir/go.mod"
  cat > "$dir/tools.go" <<EOF
//go:build tools

// Package tools records the controller this wrapper module builds, so that \`go mod tidy\` keeps
// its dependencies; the binary is built with \`go build $mod\` in this directory.
package tools

import _ "$mod"
EOF
  rm -f "$dir/go.sum"
  (cd "$dir" && GOFLAGS=-mod=mod go mod tidy) || die "go mod tidy failed for tools/flux/$c (see above)."
  say "tools/flux/$c: go.mod/go.sum now build $mod $v with $(grep -c '=>' "$dir/go.mod") replaces."
}

if [[ "$mode" == update ]]; then
  for c in "${controllers[@]}"; do update_wrapper "$c"; done
  exit 0
fi

if [[ "$mode" == check ]]; then
  for c in "${controllers[@]}"; do is_current "$c" || exit 1; done
  exit 0
fi

mkdir -p "$bin" 2>/dev/null || die "cannot create $bin: set FLOTILLA_TOOLS_DIR to a writable directory."
mkdir -p "$tools_dir/logs"
# One builder at a time per tools dir (its own lock, so a long Flux build never holds up tools/build.sh).
exec 9>"$tools_dir/.build-flux.lock"
if ! flock -n 9; then
  say "another Flux build is running in $tools_dir; waiting for it..."
  flock 9
fi

# Prints a progress line every 20 s while `go build -v` reports compiled packages on stdin; lines
# that look like errors are echoed, and everything goes to the log.
progress() {
  local out="$1" total="$2" log="$3" n=0 start last line
  start=$(date +%s); last=$start
  while IFS= read -r line; do
    echo "$line" >> "$log"
    [[ "$line" == *"#"* || "$line" == *":"* ]] && echo "$line" >&2
    n=$((n + 1))
    local now; now=$(date +%s)
    if (( now - last >= 20 )); then
      last=$now
      printf 'flotilla flux: %s: compiled %d packages (of at most %d), %dm%02ds elapsed\n' \
        "$out" "$n" "$total" $(((now - start) / 60)) $(((now - start) % 60)) >&2
    fi
  done
}

# Records why a controller did not build: printed now, and kept for the benchmark to print.
failed=()
fail_controller() {
  local c="$1" why="$2" out; out="$(output_for "$c")"
  failed+=("$c")
  printf '%s\n' "$why" > "$bin/.$out.error"
  say "$out $(version_for "$c") did not build:"
  sed 's/^/    /' <<<"$why" >&2
}
# The lines of a Go log that say what went wrong (not the package names `go build -v` lists), last 15.
go_error_of() { grep -E '#|:' "$1" | tail -n 15 || tail -n 15 "$1"; }

built=()
for c in "${controllers[@]}"; do
  out="$(output_for "$c")"; v="$(version_for "$c")"; mod="$(module_for "$c")"; dir="$flux_dir/$c"
  if [[ ! -f "$dir/go.mod" || ! -f "$dir/go.sum" ]]; then
    fail_controller "$c" "tools/flux/$c/go.mod or go.sum is missing: run 'bash tools/build-flux.sh --update $c'."
    continue
  fi
  if [[ "$(required_version "$c")" != "$v" ]]; then
    fail_controller "$c" "tools/flux/$c/go.mod requires $mod $(required_version "$c"), but tools/flux/versions.env pins $v: run 'bash tools/build-flux.sh --update $c'."
    continue
  fi
  if is_current "$c"; then
    say "$out is up to date ($bin/$out)"
    built+=("$c"); rm -f "$bin/.$out.error"
    continue
  fi
  log="$tools_dir/logs/$out.log"; : > "$log"
  say "building $out $v from Go modules (cold on 2 cores: 2-4 min each, about 8 min for all three; log: $log)..."
  if ! (cd "$dir" && go mod download) >>"$log" 2>&1; then
    fail_controller "$c" "downloading Go modules failed (is the Go module proxy reachable? GOPROXY=$(go env GOPROXY)):
$(tail -n 15 "$log")"
    continue
  fi
  total="$(cd "$dir" && go list -deps "$mod" 2>/dev/null | wc -l)"
  start=$(date +%s)
  set +o pipefail
  # (errexit holds inside the group too, so the exit status is caught with `||`.)
  { rc=0; (cd "$dir" && go build -v -ldflags "$ldflags" -o "$bin/$out.tmp" "$mod") 2>&1 || rc=$?; echo "exit:$rc" > "$bin/.$out.rc"; } \
    | progress "$out" "$total" "$log"
  set -o pipefail
  rc="$(sed 's/exit://' "$bin/.$out.rc")"; rm -f "$bin/.$out.rc"
  if [[ "$rc" != 0 ]]; then
    rm -f "$bin/$out.tmp"
    fail_controller "$c" "go build $mod@$v exited $rc:
$(go_error_of "$log")"
    continue
  fi
  mv -f "$bin/$out.tmp" "$bin/$out"
  stamp_for "$c" > "$bin/.$out.stamp"
  rm -f "$bin/.$out.error"
  built+=("$c")
  say "built $out $v in $(( $(date +%s) - start ))s ($bin/$out)"
done

if (( ${#failed[@]} > 0 )); then
  say "built ${#built[@]} of ${#controllers[@]}; did not build: ${failed[*]}"
  (( ${#built[@]} > 0 )) || exit 1
fi
exit 0
