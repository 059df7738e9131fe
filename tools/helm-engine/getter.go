package main

// One client per target cluster and identity, kept for the engine's life: its REST config (so
// client-go's transport cache reuses connections) and an in-memory discovery cache. helm still
// invalidates that cache at the start of every action (action.getCapabilities), so a chart's
// .Capabilities and the REST mapping see the cluster as it is then (CRDs applied just before
// included); what is saved is a process, its TLS handshakes and its discovery on disk.

import (
	"crypto/sha256"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// As helm's CLI: burst 100 (cli.defaultBurstLimit); QPS raised from client-go's 5, since one
// process now carries many releases' requests.
const (
	clientQPS   = 50
	clientBurst = 300
)

type cluster struct {
	raw       clientcmdapi.Config
	asUser    string
	config    *rest.Config
	discovery discovery.CachedDiscoveryInterface
	// The kinds whose server supports fieldValidation (validator.go).
	fieldValidation supportCache
}

var (
	clustersMu sync.Mutex
	clusters   = map[[32]byte]*cluster{}
)

func clusterFor(kubeconfig, asUser string) (*cluster, error) {
	key := sha256.Sum256([]byte(asUser + "\x00" + kubeconfig))
	clustersMu.Lock()
	defer clustersMu.Unlock()
	if c := clusters[key]; c != nil {
		return c, nil
	}
	raw, err := clientcmd.Load([]byte(kubeconfig))
	if err != nil {
		return nil, err
	}
	overrides := &clientcmd.ConfigOverrides{AuthInfo: clientcmdapi.AuthInfo{Impersonate: asUser}}
	config, err := clientcmd.NewNonInteractiveClientConfig(*raw, "", overrides, nil).ClientConfig()
	if err != nil {
		return nil, err
	}
	config.QPS, config.Burst = clientQPS, clientBurst
	dc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return nil, err
	}
	c := &cluster{raw: *raw, asUser: asUser, config: config, discovery: memory.NewMemCacheClient(dc)}
	clusters[key] = c
	return c, nil
}

// clientGetter is helm's RESTClientGetter for one action: the cluster's shared client, in `namespace`.
type clientGetter struct {
	c         *cluster
	namespace string
}

func (g clientGetter) ToRESTConfig() (*rest.Config, error) { return rest.CopyConfig(g.c.config), nil }

func (g clientGetter) ToDiscoveryClient() (discovery.CachedDiscoveryInterface, error) {
	return g.c.discovery, nil
}

// A mapper per call, read from the shared discovery cache: never one built before an invalidation.
func (g clientGetter) ToRESTMapper() (meta.RESTMapper, error) {
	m := restmapper.NewDeferredDiscoveryRESTMapper(g.c.discovery)
	return restmapper.NewShortcutExpander(m, g.c.discovery, nil), nil
}

func (g clientGetter) ToRawKubeConfigLoader() clientcmd.ClientConfig {
	overrides := &clientcmd.ConfigOverrides{
		Context:  clientcmdapi.Context{Namespace: g.namespace},
		AuthInfo: clientcmdapi.AuthInfo{Impersonate: g.c.asUser},
	}
	return clientcmd.NewNonInteractiveClientConfig(g.c.raw, "", overrides, nil)
}
