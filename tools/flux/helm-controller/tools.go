//go:build tools

// Package tools records the controller this wrapper module builds, so that `go mod tidy` keeps
// its dependencies; the binary is built with `go build github.com/fluxcd/helm-controller` in this directory.
package tools

import _ "github.com/fluxcd/helm-controller"
