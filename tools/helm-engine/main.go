// flotilla's resident helm engine: helm v4's action package (the same module and version as tools/helm)
// behind a line-delimited JSON protocol on stdin/stdout, so the HelmRelease controller runs
// install/upgrade/rollback/test/uninstall without starting a helm process and a post-renderer process
// per action (decision 0042). Each request carries the helm CLI arguments flotilla would have run
// (actions.go parses the flags it uses, and refuses any other by name) and the target's kubeconfig;
// requests run concurrently, one goroutine each, with a client cached per kubeconfig (getter.go).
// The post-render step is handed back to flotilla over the protocol (its kustomize and labels), and so
// is the wait for a release's objects under --wait=flotilla (wait.go).
//
// in  (flotilla → engine), one JSON object per line:
//
//	{"id":1,"args":["install","-n","apps",...,"--","web","/charts/web"],"kubeconfig":"{...}"}
//	{"id":1,"rendered":"<post-rendered manifests>"}   or   {"id":1,"renderError":"<message>"}
//	{"id":1,"cancel":true}
//	{"id":1,"waited":true}   or   {"id":1,"waitError":"<message>"}
//
// out (engine → flotilla):
//
//	{"id":1,"postRender":"<manifests helm rendered>"}
//	{"id":1,"wait":{"objects":[{"apiVersion":"v1","kind":"Service","namespace":"apps","name":"web"}],"timeoutMs":300000}}
//	{"id":1,"done":true,"stdout":"...","stderr":"<warnings>\nError: <message>","code":1}
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sync"
	"time"

	"helm.sh/helm/v4/pkg/kube"
)

type request struct {
	ID          int64    `json:"id"`
	Args        []string `json:"args,omitempty"`
	Kubeconfig  string   `json:"kubeconfig,omitempty"`
	Rendered    *string  `json:"rendered,omitempty"`
	RenderError *string  `json:"renderError,omitempty"`
	Cancel      bool     `json:"cancel,omitempty"`
	Waited      bool     `json:"waited,omitempty"`
	WaitError   *string  `json:"waitError,omitempty"`
}

type reply struct {
	ID         int64        `json:"id"`
	PostRender *string      `json:"postRender,omitempty"`
	Wait       *waitRequest `json:"wait,omitempty"`
	Done       bool         `json:"done,omitempty"`
	Stdout     string       `json:"stdout,omitempty"`
	Stderr     string       `json:"stderr,omitempty"`
	Code       int          `json:"code"`
}

// renderAnswer is flotilla's answer to a postRender callback.
type renderAnswer struct {
	manifests string
	err       string
	failed    bool
}

type engine struct {
	outMu sync.Mutex
	out   *json.Encoder

	mu      sync.Mutex
	cancels map[int64]context.CancelFunc
	renders map[int64]chan renderAnswer
	waits   map[int64]chan renderAnswer
}

func (e *engine) send(r reply) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	if err := e.out.Encode(r); err != nil {
		// flotilla is gone: nothing is left to report to.
		os.Exit(1)
	}
}

// postRender asks flotilla to post-render `manifests` for request `id` and waits for its answer.
func (e *engine) postRender(ctx context.Context, id int64, manifests string) (string, error) {
	ch := make(chan renderAnswer, 1)
	e.mu.Lock()
	e.renders[id] = ch
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.renders, id)
		e.mu.Unlock()
	}()
	e.send(reply{ID: id, PostRender: &manifests})
	select {
	case a := <-ch:
		if a.failed {
			return "", fmt.Errorf("%s", a.err)
		}
		return a.manifests, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (e *engine) handle(req request) {
	switch {
	case req.Cancel:
		e.mu.Lock()
		cancel := e.cancels[req.ID]
		e.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	case req.Rendered != nil || req.RenderError != nil:
		e.mu.Lock()
		ch := e.renders[req.ID]
		e.mu.Unlock()
		if ch == nil {
			return
		}
		if req.RenderError != nil {
			ch <- renderAnswer{err: *req.RenderError, failed: true}
		} else {
			ch <- renderAnswer{manifests: *req.Rendered}
		}
	case req.Waited || req.WaitError != nil:
		e.mu.Lock()
		ch := e.waits[req.ID]
		e.mu.Unlock()
		if ch == nil {
			return
		}
		if req.WaitError != nil {
			ch <- renderAnswer{err: *req.WaitError, failed: true}
		} else {
			ch <- renderAnswer{}
		}
	default:
		ctx, cancel := context.WithCancel(context.Background())
		e.mu.Lock()
		e.cancels[req.ID] = cancel
		e.mu.Unlock()
		go func() {
			defer func() {
				cancel()
				e.mu.Lock()
				delete(e.cancels, req.ID)
				e.mu.Unlock()
			}()
			e.send(e.run(ctx, req))
		}()
	}
}

// run performs one helm command and reports it as the helm CLI would have: warnings and
// "Error: ..." on stderr, exit code 1 on failure.
func (e *engine) run(ctx context.Context, req request) (r reply) {
	r = reply{ID: req.ID, Done: true}
	var log logBuffer
	defer func() {
		if p := recover(); p != nil {
			r.Code = 1
			r.Stderr = log.String() + fmt.Sprintf("Error: helm engine: %v\n", p)
		}
	}()
	stdout, err := runCommand(ctx, e, req, &log)
	r.Stdout = stdout
	if err != nil {
		r.Code = 1
		r.Stderr = log.String() + "Error: " + err.Error() + "\n"
	} else {
		r.Stderr = log.String()
	}
	return r
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println(helmVersion())
		return
	}
	// helm names its field manager after its program (filepath.Base(os.Args[0])): "helm" for the CLI.
	// The engine writes as that same manager, so drift detection and a later `helm` see one owner.
	kube.ManagedFieldsManager = "helm"
	defer startCPUProfile()()
	e := &engine{
		out:     json.NewEncoder(os.Stdout),
		cancels: map[int64]context.CancelFunc{},
		renders: map[int64]chan renderAnswer{},
		waits:   map[int64]chan renderAnswer{},
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var req request
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				fmt.Fprintf(os.Stderr, "helm-engine: unreadable request: %v\n", jerr)
			} else {
				e.handle(req)
			}
		}
		if err == io.EOF {
			// flotilla closed our stdin: it is stopping, and so do we (the deferred profile is written).
			return
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "helm-engine: reading requests: %v\n", err)
			os.Exit(1)
		}
	}
}

// startCPUProfile writes Go CPU profiles to $FLOTILLA_HELM_ENGINE_CPUPROFILE.<n>, one per 10 s (opt-in, to
// measure where the engine's CPU goes: `go tool pprof -top <binary> <file>.*`). Windows, since the engine
// is usually SIGKILLed with flotilla's process group and a profile is only complete once stopped.
func startCPUProfile() (stop func()) {
	path := os.Getenv("FLOTILLA_HELM_ENGINE_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	var mu sync.Mutex
	var f *os.File
	begin := func(n int) {
		var err error
		if f, err = os.Create(fmt.Sprintf("%s.%d", path, n)); err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "helm-engine: FLOTILLA_HELM_ENGINE_CPUPROFILE=%s: %v\n", path, err)
			os.Exit(2)
		}
	}
	end := func() { pprof.StopCPUProfile(); f.Close() }
	begin(0)
	go func() {
		for n := 1; ; n++ {
			time.Sleep(10 * time.Second)
			mu.Lock()
			end()
			begin(n)
			mu.Unlock()
		}
	}()
	return func() { mu.Lock(); end() }
}
