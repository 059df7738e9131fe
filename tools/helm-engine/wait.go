package main

// `--wait=flotilla`: helm-controller's poller (internal/action/wait.go) with the wait itself done by
// flotilla, which judges each object by kstatus or by the HelmRelease's spec.healthCheckExprs with the
// same CEL engine as the Kustomization (src/ssa/health). Helm asks its KubeClient for a waiter; this
// client hands out one whose Wait/WaitWithJobs go back to flotilla over the protocol ({"wait": ...}),
// so a failed wait fails the helm action itself: helm records the release as failed and the
// HelmRelease's remediation follows, as in helm-controller. Hooks (WatchUntilReady) and deletions
// (WaitForDelete) keep helm's status watcher.

import (
	"context"
	"fmt"
	"time"

	"helm.sh/helm/v4/pkg/kube"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// flotillaWait is the engine-only value of --wait.
const flotillaWait = "flotilla"

// waitObject is one object of the release to wait for, as flotilla names it.
type waitObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// A Job with spec.ttlSecondsAfterFinished (any value): gone after it finished counts as done, as
	// fluxcd/pkg/ssa's WaitOptions.JobsWithTTL (helm-controller's ExtractJobsWithTTL) has it.
	TTLAfterFinished bool `json:"ttlAfterFinished,omitempty"`
}

// waitRequest asks flotilla to wait for objects (engine → flotilla).
type waitRequest struct {
	Objects   []waitObject `json:"objects"`
	TimeoutMs int64        `json:"timeoutMs"`
}

// waitClient is helm's client with flotilla's waiter for the release's objects.
type waitClient struct {
	*kube.Client
	ctx context.Context
	e   *engine
	id  int64
}

func (c *waitClient) GetWaiter(s kube.WaitStrategy) (kube.Waiter, error) {
	return c.GetWaiterWithOptions(s)
}

func (c *waitClient) GetWaiterWithOptions(s kube.WaitStrategy, opts ...kube.WaitOption) (kube.Waiter, error) {
	inner, err := c.Client.GetWaiterWithOptions(s, opts...)
	if err != nil || s != kube.StatusWatcherStrategy {
		return inner, err
	}
	return &flotillaWaiter{Waiter: inner, c: c}, nil
}

type flotillaWaiter struct {
	kube.Waiter
	c *waitClient
}

func (w *flotillaWaiter) Wait(resources kube.ResourceList, timeout time.Duration) error {
	return w.wait(resources, timeout, false)
}

func (w *flotillaWaiter) WaitWithJobs(resources kube.ResourceList, timeout time.Duration) error {
	return w.wait(resources, timeout, true)
}

func (w *flotillaWaiter) wait(resources kube.ResourceList, timeout time.Duration, jobs bool) error {
	objs := make([]waitObject, 0, len(resources))
	for _, res := range resources {
		gvk := res.Object.GetObjectKind().GroupVersionKind()
		if res.Mapping != nil {
			gvk = res.Mapping.GroupVersionKind
		}
		switch {
		// Paused Deployments are skipped, as helm and helm-controller do.
		case gvk.Group == "apps" && gvk.Kind == "Deployment" && paused(res.Object):
			continue
		// Without --wait-for-jobs a Job is not waited for to complete (flotilla's kstatus always does).
		case gvk.Group == "batch" && gvk.Kind == "Job" && !jobs:
			continue
		}
		objs = append(objs, waitObject{
			APIVersion:       gvk.GroupVersion().String(),
			Kind:             gvk.Kind,
			Namespace:        res.Namespace,
			Name:             res.Name,
			TTLAfterFinished: gvk.Group == "batch" && gvk.Kind == "Job" && hasTTL(res.Object),
		})
	}
	if len(objs) == 0 {
		return nil
	}
	return w.c.e.waitFor(w.c.ctx, w.c.id, waitRequest{Objects: objs, TimeoutMs: timeout.Milliseconds()})
}

func hasTTL(o runtime.Object) bool {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return false
	}
	_, found, err := unstructured.NestedInt64(u, "spec", "ttlSecondsAfterFinished")
	return err == nil && found
}

func paused(o runtime.Object) bool {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return false
	}
	p, ok, _ := unstructured.NestedBool(u, "spec", "paused")
	return ok && p
}

// waitFor asks flotilla to wait for request `id`'s objects and returns its verdict.
func (e *engine) waitFor(ctx context.Context, id int64, w waitRequest) error {
	ch := make(chan renderAnswer, 1)
	e.mu.Lock()
	e.waits[id] = ch
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.waits, id)
		e.mu.Unlock()
	}()
	e.send(reply{ID: id, Wait: &w})
	select {
	case a := <-ch:
		if a.failed {
			return fmt.Errorf("%s", a.err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
