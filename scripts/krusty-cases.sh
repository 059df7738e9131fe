#!/usr/bin/env bash
# Regenerates test/fixtures/kustomize-krusty from kustomize's own test suite (api/krusty) at the
# version the pinned kustomize uses: downloads that module with the Go module proxy and runs the
# extractor (scripts/krusty-cases/main.go). usage: bash scripts/krusty-cases.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
api=$(awk '$1 == "sigs.k8s.io/kustomize/api" { print $2 }' tools/kustomize/go.mod)
[[ -n "$api" ]] || { echo "krusty-cases: tools/kustomize/go.mod does not require sigs.k8s.io/kustomize/api" >&2; exit 1; }
src=$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "sigs.k8s.io/kustomize/api@$api" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[[ -d "$src/krusty" ]] || { echo "krusty-cases: sigs.k8s.io/kustomize/api@$api has no krusty directory at $src" >&2; exit 1; }
cd scripts/krusty-cases
go run . -src "$src" -out ../../test/fixtures/kustomize-krusty
