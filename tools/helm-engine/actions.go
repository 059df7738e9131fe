package main

// The helm commands flotilla runs (src/controllers/helmrelease/actions/*.ts builds their arguments),
// each as helm's own cmd/ package runs it (pkg/cmd/install.go, upgrade.go, rollback.go,
// release_testing.go, uninstall.go), with the flags flotilla passes. A flag flotilla does not pass is
// refused by pflag ("unknown flag"), never ignored.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"
	"helm.sh/helm/v4/pkg/action"
	ci "helm.sh/helm/v4/pkg/chart"
	"helm.sh/helm/v4/pkg/chart/loader"
	"helm.sh/helm/v4/pkg/cli"
	"helm.sh/helm/v4/pkg/cli/values"
	"helm.sh/helm/v4/pkg/getter"
	"helm.sh/helm/v4/pkg/kube"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

var version = "unknown"

func helmVersion() string { return version }

// settings for what helm's CLI reads from its environment outside a cluster (chart location, getters).
var settings = cli.New()

// logBuffer collects an action's warnings, as helm's CLI prints them on stderr.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// common holds the flags every command shares and the values/wait flags several do.
type common struct {
	namespace, asUser, wait, postRenderer string
	timeout                               time.Duration
	valueFiles                            []string
}

func (c *common) bind(f *pflag.FlagSet, withValues bool) {
	f.StringVarP(&c.namespace, "namespace", "n", "default", "")
	f.StringVar(&c.asUser, "kube-as-user", "", "")
	f.DurationVar(&c.timeout, "timeout", 300*time.Second, "")
	f.StringVar(&c.wait, "wait", string(kube.HookOnlyStrategy), "")
	f.Lookup("wait").NoOptDefVal = string(kube.StatusWatcherStrategy)
	if withValues {
		f.StringArrayVarP(&c.valueFiles, "values", "f", nil, "")
		f.StringVar(&c.postRenderer, "post-renderer", "", "")
	}
}

func (c *common) waitStrategy() (kube.WaitStrategy, error) {
	switch s := kube.WaitStrategy(c.wait); s {
	case flotillaWait:
		return kube.StatusWatcherStrategy, nil
	case kube.StatusWatcherStrategy, kube.HookOnlyStrategy, kube.LegacyStrategy:
		return s, nil
	}
	return "", fmt.Errorf("invalid wait strategy %q", c.wait)
}

// callback post-renders through flotilla (engine.postRender) when the command asked for one.
type callback struct {
	ctx context.Context
	e   *engine
	id  int64
}

func (p callback) Run(in *bytes.Buffer) (*bytes.Buffer, error) {
	out, err := p.e.postRender(p.ctx, p.id, in.String())
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(out) == "" {
		return nil, errors.New("flotilla's post-renderer produced empty output")
	}
	return bytes.NewBufferString(out), nil
}

// The CLI's defaults for every wait-enabled command (pkg/cmd/flags.go defaultCLIWaitOptions).
var cliWaitOptions = []kube.WaitOption{kube.WithStatusComputeWorkers(8)}

func configure(kubeconfig string, c *common, log *logBuffer) (*action.Configuration, error) {
	cl, err := clusterFor(kubeconfig, c.asUser)
	if err != nil {
		return nil, fmt.Errorf("kubernetes cluster unreachable: %w", err)
	}
	h := slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn})
	cfg := action.NewConfiguration(action.ConfigurationSetLogger(h))
	if err := cfg.Init(clientGetter{c: cl, namespace: c.namespace}, c.namespace, "secret"); err != nil {
		return nil, err
	}
	// The cluster's fieldValidation answers, kept across actions (validator.go).
	if kc, ok := cfg.KubeClient.(*kube.Client); ok {
		if full, ok := kc.Factory.(cmdutil.Factory); ok {
			kc.Factory = verifyingFactory{Factory: full, c: cl}
		}
	}
	return cfg, nil
}

// loadChart is the CLI's chart loading for install and upgrade: located, dependencies present.
func loadChart(path string, devel bool, install bool) (ci.Charter, error) {
	opts := action.ChartPathOptions{}
	if devel {
		opts.Version = ">0.0.0-0"
	}
	cp, err := opts.LocateChart(path, settings)
	if err != nil {
		return nil, err
	}
	ch, err := loader.Load(cp)
	if err != nil {
		return nil, err
	}
	ac, err := ci.NewAccessor(ch)
	if err != nil {
		return nil, err
	}
	if install {
		if t := ac.MetadataAsMap()["Type"]; t != "" && t != "application" && t != nil {
			return nil, fmt.Errorf("%s charts are not installable", t)
		}
	}
	if ac.Deprecated() {
		slog.Warn("this chart is deprecated")
	}
	if req := ac.MetaDependencies(); len(req) > 0 {
		if err := action.CheckDependencies(ch, req); err != nil {
			return nil, fmt.Errorf("an error occurred while checking for chart dependencies. You may need to run 'helm dependency build' to fetch missing dependencies: %w", err)
		}
	}
	return ch, nil
}

func mergeValues(files []string) (map[string]any, error) {
	return (&values.Options{ValueFiles: files}).MergeValues(getter.All(settings))
}

func runCommand(ctx context.Context, e *engine, req request, log *logBuffer) (string, error) {
	if len(req.Args) == 0 {
		return "", errors.New("no helm command")
	}
	name, rest := req.Args[0], req.Args[1:]
	f := pflag.NewFlagSet(name, pflag.ContinueOnError)
	f.SetOutput(log)
	var c common
	var post func(cfg *action.Configuration) (string, error)
	switch name {
	case "install":
		post = installCommand(ctx, e, req, f, &c)
	case "upgrade":
		post = upgradeCommand(ctx, e, req, f, &c)
	case "rollback":
		post = rollbackCommand(f, &c)
	case "test":
		post = testCommand(f, &c)
	case "uninstall":
		post = uninstallCommand(f, &c)
	default:
		return "", fmt.Errorf("unknown command %q for the helm engine", name)
	}
	if err := f.Parse(rest); err != nil {
		return "", err
	}
	cfg, err := configure(req.Kubeconfig, &c, log)
	if err != nil {
		return "", err
	}
	if c.wait == flotillaWait {
		kc, ok := cfg.KubeClient.(*kube.Client)
		if !ok {
			return "", errors.New("--wait=flotilla needs helm's own kube client")
		}
		cfg.KubeClient = &waitClient{Client: kc, ctx: ctx, e: e, id: req.ID}
	}
	return post(cfg)
}

// positionals: exactly n arguments after "--".
func positionals(f *pflag.FlagSet, command string, n int) ([]string, error) {
	if f.NArg() != n {
		return nil, fmt.Errorf("%q requires %d arguments, got %d", command, n, f.NArg())
	}
	return f.Args(), nil
}

func installCommand(ctx context.Context, e *engine, req request, f *pflag.FlagSet, c *common) func(*action.Configuration) (string, error) {
	c.bind(f, true)
	var o action.Install
	o.ServerSideApply = true
	f.BoolVar(&o.ServerSideApply, "server-side", true, "")
	f.BoolVar(&o.ForceConflicts, "force-conflicts", false, "")
	f.BoolVar(&o.TakeOwnership, "take-ownership", false, "")
	f.BoolVar(&o.WaitForJobs, "wait-for-jobs", false, "")
	f.BoolVar(&o.SkipCRDs, "skip-crds", false, "")
	f.BoolVar(&o.Devel, "devel", false, "")
	f.BoolVar(&o.CreateNamespace, "create-namespace", false, "")
	f.BoolVar(&o.Replace, "replace", false, "")
	f.BoolVar(&o.DisableHooks, "no-hooks", false, "")
	f.BoolVar(&o.DisableOpenAPIValidation, "disable-openapi-validation", false, "")
	f.BoolVar(&o.SkipSchemaValidation, "skip-schema-validation", false, "")
	return func(cfg *action.Configuration) (string, error) {
		args, err := positionals(f, "install", 2)
		if err != nil {
			return "", err
		}
		client := action.NewInstall(cfg)
		client.ServerSideApply, client.ForceConflicts, client.TakeOwnership = o.ServerSideApply, o.ForceConflicts, o.TakeOwnership
		client.WaitForJobs, client.SkipCRDs, client.Devel = o.WaitForJobs, o.SkipCRDs, o.Devel
		client.CreateNamespace, client.Replace, client.DisableHooks = o.CreateNamespace, o.Replace, o.DisableHooks
		client.DisableOpenAPIValidation, client.SkipSchemaValidation = o.DisableOpenAPIValidation, o.SkipSchemaValidation
		client.Timeout, client.Namespace = c.timeout, c.namespace
		client.WaitOptions = append(client.WaitOptions, cliWaitOptions...)
		if client.WaitStrategy, err = c.waitStrategy(); err != nil {
			return "", err
		}
		if c.postRenderer != "" {
			client.PostRenderer = callback{ctx, e, req.ID}
		}
		name, chartRef, err := client.NameAndChart(args)
		if err != nil {
			return "", err
		}
		client.ReleaseName = name
		vals, err := mergeValues(c.valueFiles)
		if err != nil {
			return "", err
		}
		ch, err := loadChart(chartRef, o.Devel, true)
		if err != nil {
			return "", err
		}
		if _, err := client.RunWithContext(ctx, ch, vals); err != nil {
			return "", err
		}
		return fmt.Sprintf("NAME: %s\nNAMESPACE: %s\nSTATUS: deployed\n", name, c.namespace), nil
	}
}

func upgradeCommand(ctx context.Context, e *engine, req request, f *pflag.FlagSet, c *common) func(*action.Configuration) (string, error) {
	c.bind(f, true)
	var o action.Upgrade
	f.StringVar(&o.ServerSideApply, "server-side", "auto", "")
	f.BoolVar(&o.ForceConflicts, "force-conflicts", false, "")
	f.BoolVar(&o.ForceReplace, "force-replace", false, "")
	f.BoolVar(&o.TakeOwnership, "take-ownership", false, "")
	f.BoolVar(&o.WaitForJobs, "wait-for-jobs", false, "")
	f.BoolVar(&o.SkipCRDs, "skip-crds", false, "")
	f.BoolVar(&o.Devel, "devel", false, "")
	f.BoolVar(&o.ReuseValues, "reuse-values", false, "")
	f.BoolVar(&o.ResetValues, "reset-values", false, "")
	f.IntVar(&o.MaxHistory, "history-max", 10, "")
	f.BoolVar(&o.CleanupOnFail, "cleanup-on-fail", false, "")
	f.BoolVar(&o.DisableHooks, "no-hooks", false, "")
	f.BoolVar(&o.DisableOpenAPIValidation, "disable-openapi-validation", false, "")
	f.BoolVar(&o.SkipSchemaValidation, "skip-schema-validation", false, "")
	return func(cfg *action.Configuration) (string, error) {
		args, err := positionals(f, "upgrade", 2)
		if err != nil {
			return "", err
		}
		if o.ForceReplace && o.ForceConflicts {
			return "", errors.New("if any flags in the group [force-replace force-conflicts] are set none of the others can be; [force-conflicts force-replace] were all set")
		}
		client := action.NewUpgrade(cfg)
		client.ServerSideApply, client.ForceConflicts, client.ForceReplace = o.ServerSideApply, o.ForceConflicts, o.ForceReplace
		client.TakeOwnership, client.WaitForJobs, client.SkipCRDs, client.Devel = o.TakeOwnership, o.WaitForJobs, o.SkipCRDs, o.Devel
		client.ReuseValues, client.ResetValues, client.MaxHistory = o.ReuseValues, o.ResetValues, o.MaxHistory
		client.CleanupOnFail, client.DisableHooks = o.CleanupOnFail, o.DisableHooks
		client.DisableOpenAPIValidation, client.SkipSchemaValidation = o.DisableOpenAPIValidation, o.SkipSchemaValidation
		client.Timeout, client.Namespace = c.timeout, c.namespace
		client.WaitOptions = append(client.WaitOptions, cliWaitOptions...)
		if client.WaitStrategy, err = c.waitStrategy(); err != nil {
			return "", err
		}
		if c.postRenderer != "" {
			client.PostRenderer = callback{ctx, e, req.ID}
		}
		vals, err := mergeValues(c.valueFiles)
		if err != nil {
			return "", err
		}
		ch, err := loadChart(args[1], o.Devel, false)
		if err != nil {
			return "", err
		}
		if _, err := client.RunWithContext(ctx, args[0], ch, vals); err != nil {
			return "", err
		}
		return fmt.Sprintf("Release %q has been upgraded. Happy Helming!\n", args[0]), nil
	}
}

func rollbackCommand(f *pflag.FlagSet, c *common) func(*action.Configuration) (string, error) {
	c.bind(f, false)
	var o action.Rollback
	f.StringVar(&o.ServerSideApply, "server-side", "auto", "")
	f.BoolVar(&o.ForceConflicts, "force-conflicts", false, "")
	f.BoolVar(&o.ForceReplace, "force-replace", false, "")
	f.BoolVar(&o.WaitForJobs, "wait-for-jobs", false, "")
	f.IntVar(&o.MaxHistory, "history-max", 10, "")
	f.BoolVar(&o.CleanupOnFail, "cleanup-on-fail", false, "")
	f.BoolVar(&o.DisableHooks, "no-hooks", false, "")
	return func(cfg *action.Configuration) (string, error) {
		args, err := positionals(f, "rollback", 2)
		if err != nil {
			return "", err
		}
		client := action.NewRollback(cfg)
		if client.Version, err = strconv.Atoi(args[1]); err != nil {
			return "", fmt.Errorf("could not convert revision to a number: %w", err)
		}
		client.ServerSideApply, client.ForceConflicts, client.ForceReplace = o.ServerSideApply, o.ForceConflicts, o.ForceReplace
		client.WaitForJobs, client.MaxHistory, client.CleanupOnFail, client.DisableHooks = o.WaitForJobs, o.MaxHistory, o.CleanupOnFail, o.DisableHooks
		client.Timeout = c.timeout
		client.WaitOptions = append(client.WaitOptions, cliWaitOptions...)
		if client.WaitStrategy, err = c.waitStrategy(); err != nil {
			return "", err
		}
		if err := client.Run(args[0]); err != nil {
			return "", err
		}
		return "Rollback was a success! Happy Helming!\n", nil
	}
}

var notName = regexp.MustCompile(`^!\s?name=`)

func testCommand(f *pflag.FlagSet, c *common) func(*action.Configuration) (string, error) {
	c.bind(f, false)
	var filters []string
	f.StringSliceVar(&filters, "filter", nil, "")
	return func(cfg *action.Configuration) (out string, err error) {
		args, err := positionals(f, "test", 1)
		if err != nil {
			return "", err
		}
		client := action.NewReleaseTesting(cfg)
		client.Namespace, client.Timeout = c.namespace, c.timeout
		for _, x := range filters {
			if after, ok := strings.CutPrefix(x, "name="); ok {
				client.Filters[action.IncludeNameFilter] = append(client.Filters[action.IncludeNameFilter], after)
			} else if notName.MatchString(x) {
				client.Filters[action.ExcludeNameFilter] = append(client.Filters[action.ExcludeNameFilter], notName.ReplaceAllLiteralString(x, ""))
			}
		}
		rel, shutdown, runErr := client.Run(args[0])
		defer func() {
			if shutdown == nil {
				return
			}
			if shutdownErr := shutdown(); shutdownErr != nil && err == nil {
				err = shutdownErr
			}
		}()
		if runErr != nil && rel == nil {
			return "", runErr
		}
		return fmt.Sprintf("NAME: %s\n", args[0]), runErr
	}
}

func uninstallCommand(f *pflag.FlagSet, c *common) func(*action.Configuration) (string, error) {
	c.bind(f, false)
	var o action.Uninstall
	f.StringVar(&o.DeletionPropagation, "cascade", "background", "")
	f.BoolVar(&o.IgnoreNotFound, "ignore-not-found", false, "")
	f.BoolVar(&o.KeepHistory, "keep-history", false, "")
	f.BoolVar(&o.DisableHooks, "no-hooks", false, "")
	return func(cfg *action.Configuration) (string, error) {
		args, err := positionals(f, "uninstall", 1)
		if err != nil {
			return "", err
		}
		switch o.DeletionPropagation {
		case "background", "foreground", "orphan":
		default:
			return "", fmt.Errorf("invalid cascade value (%s). Must be \"background\", \"foreground\", or \"orphan\"", o.DeletionPropagation)
		}
		client := action.NewUninstall(cfg)
		client.DeletionPropagation, client.IgnoreNotFound = o.DeletionPropagation, o.IgnoreNotFound
		client.KeepHistory, client.DisableHooks, client.Timeout = o.KeepHistory, o.DisableHooks, c.timeout
		client.WaitOptions = append(client.WaitOptions, cliWaitOptions...)
		if client.WaitStrategy, err = c.waitStrategy(); err != nil {
			return "", err
		}
		res, err := client.Run(args[0])
		if err != nil {
			return "", err
		}
		info := ""
		if res != nil && res.Info != "" {
			info = res.Info + "\n"
		}
		return info + fmt.Sprintf("release \"%s\" uninstalled\n", args[0]), nil
	}
}
