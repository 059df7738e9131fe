module flotilla.dev/tools/resourceset-template

go 1.26.0

// The versions flux-operator v0.59.0 (FLUX_OPERATOR_VERSION in tools/versions.env) requires.
require (
	github.com/go-task/slim-sprig/v3 v3.0.0
	github.com/gosimple/slug v1.15.0
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/gosimple/unidecode v1.0.1 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
)
