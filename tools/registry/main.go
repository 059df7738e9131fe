// The CNCF distribution registry exactly as github.com/distribution/distribution/v3/cmd/registry builds
// it (the same imports: auth and storage drivers), plus one subcommand the tests need:
//
//	registry htpasswd <username>   (password on stdin) → prints "<username>:<bcrypt hash>"
//
// The registry's htpasswd auth accepts bcrypt hashes only, and neither Node nor the system offers
// bcrypt without a new native dependency; golang.org/x/crypto/bcrypt is already in this binary
// (the registry verifies passwords with it), so it makes the lines too.
package main

import (
	"bufio"
	"fmt"
	_ "net/http/pprof"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/bcrypt"

	"github.com/distribution/distribution/v3/registry"
	_ "github.com/distribution/distribution/v3/registry/auth/htpasswd"
	_ "github.com/distribution/distribution/v3/registry/auth/silly"
	_ "github.com/distribution/distribution/v3/registry/auth/token"
	_ "github.com/distribution/distribution/v3/registry/proxy"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/azure"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/filesystem"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/gcs"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/inmemory"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/middleware/cloudfront"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/middleware/redirect"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/middleware/rewrite"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/s3-aws"
)

var htpasswdCmd = &cobra.Command{
	Use:   "htpasswd <username>",
	Short: "print an htpasswd line (bcrypt) for the password read from stdin",
	Args:  cobra.ExactArgs(1),
	// Like upstream's commands, it ends the process itself on failure (main ignores Execute's error).
	Run: func(cmd *cobra.Command, args []string) {
		password, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil && password == "" {
			fmt.Fprintln(os.Stderr, "registry htpasswd: no password on stdin")
			os.Exit(1)
		}
		hash, err := bcrypt.GenerateFromPassword([]byte(strings.TrimSuffix(password, "\n")), bcrypt.DefaultCost)
		if err != nil {
			fmt.Fprintln(os.Stderr, "registry htpasswd:", err)
			os.Exit(1)
		}
		fmt.Printf("%s:%s\n", args[0], hash)
	},
}

func main() {
	registry.RootCmd.AddCommand(htpasswdCmd)
	// As upstream: the registered commands report their own errors and exit non-zero.
	// nolint:errcheck
	registry.RootCmd.Execute()
}
