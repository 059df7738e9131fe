package main

// helm validates every manifest it builds (install, upgrade, rollback, hooks) the way kubectl does:
// kubectl's Factory.Validator asks whether the server supports the fieldValidation query parameter for
// the object's kind, reading the OpenAPI v3 document of its group-version. It builds a new verifier per
// call, and discovery (so the OpenAPI client) is invalidated per action: each action fetched and parsed
// /openapi/v3/api/v1 (about 1 MiB of JSON) once per kind, which was the engine's largest cost per
// HelmRelease (decision 0042, "Where the CPU went"). Here the answer is kept per cluster and kind for the
// engine's life once it is "supported" (what a server says of a kind does not change while it runs);
// any other answer is asked again. The validation itself is unchanged: the server validates (Strict),
// and a kind without the parameter falls back to client-side schema validation, as in kubectl.

import (
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/openapi/cached"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/validation"
)

// supportCache remembers, per cluster, the kinds whose server supports fieldValidation.
type supportCache struct {
	mu        sync.Mutex
	supported map[schema.GroupVersionKind]bool
	// One miss asked at a time: the first actions start together, and each would read the same documents.
	missMu sync.Mutex
}

// verifyingFactory is helm's kubectl factory with a validator whose verifier answers from the cluster's cache.
type verifyingFactory struct {
	cmdutil.Factory
	c *cluster
}

func (f verifyingFactory) Validator(directive string) (validation.Schema, error) {
	if directive == metav1.FieldValidationIgnore {
		return validation.NullSchema{}, nil
	}
	dyn, err := f.DynamicClient()
	if err != nil {
		return nil, err
	}
	// As kubectl's factoryImpl.Validator, with the OpenAPI documents read from the server only on a miss.
	schemaCheck := validation.ConjunctiveSchema{validation.NewSchemaValidation(f.Factory), validation.NoDoubleKeySchema{}}
	return validation.NewParamVerifyingSchema(schemaCheck, cachedVerifier{f: f, dyn: dyn}, directive), nil
}

type cachedVerifier struct {
	f   verifyingFactory
	dyn dynamic.Interface
}

func (v cachedVerifier) HasSupport(gvk schema.GroupVersionKind) error {
	cache := &v.f.c.fieldValidation
	cache.mu.Lock()
	ok := cache.supported[gvk]
	cache.mu.Unlock()
	if ok {
		return nil
	}
	cache.missMu.Lock()
	defer cache.missMu.Unlock()
	cache.mu.Lock()
	ok = cache.supported[gvk]
	cache.mu.Unlock()
	if ok {
		return nil
	}
	disc, err := v.f.ToDiscoveryClient()
	if err != nil {
		return err
	}
	param := resource.QueryParamFieldValidation
	primary := resource.NewQueryParamVerifierV3(v.dyn, cached.NewClient(disc.OpenAPIV3()), param)
	secondary := resource.NewQueryParamVerifier(v.dyn, disc, param)
	if err := resource.NewFallbackQueryParamVerifier(primary, secondary).HasSupport(gvk); err != nil {
		return err
	}
	cache.mu.Lock()
	if cache.supported == nil {
		cache.supported = map[schema.GroupVersionKind]bool{}
	}
	cache.supported[gvk] = true
	cache.mu.Unlock()
	return nil
}
