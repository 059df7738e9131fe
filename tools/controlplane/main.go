// Command flotilla-kube is a multi-call binary holding the real upstream
// Kubernetes control plane: etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler and kubectl, all linked from their published Go modules.
//
// One binary instead of five because the packages overlap almost entirely:
// linking once saves several minutes of a cold build and ~600 MB of disk.
// The component is chosen by the first argument or, for symlinks such as
// `kubectl`, by the program name.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	_ "time/tzdata" // CronJob time zones, as upstream's mains do

	"go.etcd.io/etcd/server/v3/etcdmain"
	_ "k8s.io/client-go/plugin/pkg/client/auth"
	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	kubectlcmd "k8s.io/kubectl/pkg/cmd"
	kubectlutil "k8s.io/kubectl/pkg/cmd/util"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
)

var components = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubectl"}

func main() {
	name := filepath.Base(os.Args[0])
	args := os.Args
	if !isComponent(name) {
		if len(os.Args) < 2 || !isComponent(os.Args[1]) {
			fmt.Fprintf(os.Stderr, "usage: %s {%s} [flags]\n", name, strings.Join(components, "|"))
			os.Exit(2)
		}
		name = os.Args[1]
		args = append([]string{name}, os.Args[2:]...)
	}
	os.Args = args
	switch name {
	case "etcd":
		etcdmain.Main(args)
	case "kube-apiserver":
		os.Exit(cli.Run(apiserver.NewAPIServerCommand()))
	case "kube-controller-manager":
		os.Exit(cli.Run(controllermanager.NewControllerManagerCommand()))
	case "kube-scheduler":
		os.Exit(cli.Run(scheduler.NewSchedulerCommand()))
	case "kubectl":
		logs.GlogSetter(kubectlcmd.GetLogVerbosity(args)) // nolint:errcheck
		if err := cli.RunNoErrOutput(kubectlcmd.NewDefaultKubectlCommand()); err != nil {
			kubectlutil.CheckErr(err)
		}
	}
}

func isComponent(name string) bool {
	for _, c := range components {
		if c == name {
			return true
		}
	}
	return false
}
