// Extracts kustomize's own test suite (sigs.k8s.io/kustomize/api/krusty, *_test.go) as parity cases:
// every test whose body only writes files and runs a build is interpreted (statement by statement,
// with the package's string constants and its helper functions that take the harness), and each
// build it runs becomes a directory of files plus case.json saying where it came from. The expected
// output is not copied: the parity test asks the real kustomize at test time. Tests that need
// plugins, the network or Go-only checks are listed in skipped.json with the reason. A build that
// must fail gets its expected-error.json from expected-errors.json here (the problem both tools must
// report, in each one's words — see scripts/parity-cases.mjs); one without is an unclassified case.
//
//	go run ./scripts/krusty-cases -src "$(go env GOMODCACHE)/sigs.k8s.io/kustomize/api@v0.21.2" -out test/fixtures/kustomize-krusty
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

type caseFile struct {
	Source      string   `json:"source"`
	Test        string   `json:"test"`
	Run         int      `json:"run"`
	Dir         string   `json:"dir"`
	ExpectError bool     `json:"expectError"`
	ErrorHas    []string `json:"errorContains,omitempty"`
	Options     []string `json:"options,omitempty"`
}

type run struct {
	sub      string
	dir      string
	files    map[string]string
	wantErr  bool
	errorHas []string
	options  []string
}

type unsupported struct{ reason string }

// fileSystem is a harness's file system (on disk or in memory): the case's files/ directory.
type fileSystem struct{}

type interp struct {
	src     string // the krusty directory, for testdata files the tests read
	fset    *token.FileSet
	consts  map[string]string
	helpers map[string]*ast.FuncDecl
	vars    map[string]any // strings, and values tables.go evaluates (lists, maps, functions)
	sub     string         // the subtest (t.Run) being interpreted, if any
	files   map[string]string
	runs    []*run
	opts    map[string][]string // options variables: name -> kustomize flags
	depth   int
}

func fail(format string, args ...any) { panic(unsupported{fmt.Sprintf(format, args...)}) }

func (in *interp) str(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			fail("non-string literal %s", x.Value)
		}
		s, err := strconv.Unquote(x.Value)
		if err != nil {
			fail("bad literal")
		}
		return s
	case *ast.Ident:
		if v, ok := in.vars[x.Name].(string); ok {
			return v
		}
		if v, ok := in.consts[x.Name]; ok {
			return v
		}
		fail("unknown identifier %s", x.Name)
	case *ast.SelectorExpr:
		// A table row's field (tc.runPath).
		if m, ok := in.value(x.X).(map[string]any); ok {
			switch v := m[x.Sel.Name].(type) {
			case string:
				return v
			case unevaluated:
				fail("%s", v.reason)
			}
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return in.str(x.X) + in.str(x.Y)
		}
	case *ast.ParenExpr:
		return in.str(x.X)
	case *ast.CallExpr:
		if name := callName(x); name == "string" && len(x.Args) == 1 {
			return in.str(x.Args[0])
		}
		if callName(x) == "th.GetRoot" {
			return ""
		}
		if callName(x) == "th.MkDir" && len(x.Args) == 1 {
			return in.str(x.Args[0]) // a directory under the root; made as files are written
		}
		if callName(x) == "konfig.DefaultKustomizationFileName" {
			return "kustomization.yaml"
		}
		if callName(x) == "fmt.Sprintf" && len(x.Args) > 0 {
			args := []any{}
			for _, a := range x.Args[1:] {
				args = append(args, in.value(a))
			}
			return fmt.Sprintf(in.str(x.Args[0]), args...)
		}
		if name := callName(x); name == "filepath.Join" || name == "path.Join" {
			parts := []string{}
			for _, a := range x.Args {
				parts = append(parts, in.str(a))
			}
			return path.Join(parts...)
		}
	}
	if c, ok := e.(*ast.CallExpr); ok {
		fail("call %s is not a string the extractor can evaluate", callName(c))
	}
	fail("expression %T is not a string the extractor can evaluate", e)
	return ""
}

func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok {
			return id.Name + "." + f.Sel.Name
		}
	}
	return ""
}

// clean maps a harness path (absolute or relative to the in-memory root) to one inside the case.
func clean(p string) string {
	c := path.Clean("/" + p)
	return strings.TrimPrefix(c, "/")
}

func (in *interp) options(e ast.Expr) []string {
	if id, ok := e.(*ast.Ident); ok {
		if o, ok := in.opts[id.Name]; ok {
			return o
		}
		fail("unknown options %s", id.Name)
	}
	if c, ok := e.(*ast.CallExpr); ok {
		switch callName(c) {
		case "th.MakeDefaultOptions", "th.MakeOptionsPluginsDisabled":
			return []string{}
		case "th.MakeOptionsPluginsEnabled":
			// Only helm charts are extracted with plugins on (kustomize build --enable-helm); a build
			// that needs another plugin fails to extract later (needsPlugins).
			return []string{"--enable-helm"}
		}
	}
	fail("options expression the extractor cannot evaluate")
	return nil
}

func (in *interp) snapshot() map[string]string {
	out := map[string]string{}
	for k, v := range in.files {
		out[k] = v
	}
	return out
}

func (in *interp) call(c *ast.CallExpr) {
	// deployment("db", "prod/db")(th): a helper's function value, called at once.
	if inner, ok := c.Fun.(*ast.CallExpr); ok {
		if f, ok := in.value(inner).(fnVal); ok {
			in.invoke(f, c)
			return
		}
	}
	name := callName(c)
	switch name {
	case "th.WriteK", "th.WriteC":
		header := "\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
		if name == "th.WriteC" {
			header = "\napiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n"
		}
		in.files[clean(path.Join(in.str(c.Args[0]), "kustomization.yaml"))] = header + in.str(c.Args[1])
	case "th.WriteF":
		in.files[clean(in.str(c.Args[0]))] = in.str(c.Args[1])
	case "th.Run", "th.RunWithErr":
		in.runs = append(in.runs, &run{
			sub: in.sub, dir: clean(in.str(c.Args[0])), files: in.snapshot(), wantErr: name == "th.RunWithErr",
			options: in.options(c.Args[1]),
		})
	case "th.AssertActualEqualsExpected", "th.AssertActualEqualsExpectedNoIdAnnotations", "t.Helper",
		"openapi.ResetOpenAPI":
	case "copyutil.CopyDir":
		in.copyTestdata(in.str(c.Args[1]), in.str(c.Args[2]))
	case "th.WriteLegacyConfigs":
		in.files[clean(in.str(c.Args[0]))] = legacyConfigs(in.src)
	case "th.Reset":
		in.files = map[string]string{}
	case "t.Run":
		in.subtest(c)
	default:
		if id, ok := c.Fun.(*ast.Ident); ok {
			if f, ok := in.vars[id.Name].(fnVal); ok {
				in.invoke(f, c)
				return
			}
		}
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "MkdirAll" || sel.Sel.Name == "Mkdir") {
			return // directories are made as files are written
		}
		// A helper that only runs the test it is given (runOpenApiTest(t, func(t) {...})).
		if len(c.Args) == 2 {
			if lit, ok := c.Args[1].(*ast.FuncLit); ok {
				if id, ok := c.Args[0].(*ast.Ident); ok && id.Name == "t" {
					in.block(lit.Body.List)
					return
				}
			}
		}
		if fd, ok := in.helpers[name]; ok {
			in.inline(fd, c)
			return
		}
		fail("call %s (%s)", name, in.fset.Position(c.Pos()))
	}
}

// inline interprets a package helper such as writeBase(th) with its string parameters bound.
func (in *interp) inline(fd *ast.FuncDecl, c *ast.CallExpr) {
	if in.depth > 5 {
		fail("helper recursion")
	}
	saved := in.vars
	in.vars = map[string]any{}
	for k, v := range saved {
		in.vars[k] = v
	}
	i := 0
	for _, field := range fd.Type.Params.List {
		for _, n := range field.Names {
			if i >= len(c.Args) {
				fail("helper arity")
			}
			if id, ok := c.Args[i].(*ast.Ident); ok && id.Name == "t" {
				// the *testing.T, not needed
			} else if id, ok := c.Args[i].(*ast.Ident); !ok || id.Name != "th" {
				in.vars[n.Name] = in.value(c.Args[i])
			} else if n.Name != "th" {
				fail("harness parameter not named th")
			}
			i++
		}
	}
	in.depth++
	in.block(fd.Body.List)
	in.depth--
	in.vars = saved
}

// errPhrases collects the string literals an `if` checks the error against.
func errPhrases(n ast.Node) []string {
	var out []string
	ast.Inspect(n, func(x ast.Node) bool {
		if c, ok := x.(*ast.CallExpr); ok && (callName(c) == "strings.Contains" || callName(c) == "assert.Contains" || callName(c) == "require.Contains") {
			for _, a := range c.Args {
				if b, ok := a.(*ast.BasicLit); ok && b.Kind == token.STRING {
					s, _ := strconv.Unquote(b.Value)
					out = append(out, s)
				}
			}
		}
		if c, ok := x.(*ast.CallExpr); ok && (callName(c) == "require.ErrorContains" || callName(c) == "assert.ErrorContains") {
			if b, ok := c.Args[len(c.Args)-1].(*ast.BasicLit); ok && b.Kind == token.STRING {
				s, _ := strconv.Unquote(b.Value)
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

func (in *interp) block(stmts []ast.Stmt) {
	for _, s := range stmts {
		in.stmt(s)
	}
}

func (in *interp) stmt(s ast.Stmt) {
	switch x := s.(type) {
	case *ast.ExprStmt:
		c, ok := x.X.(*ast.CallExpr)
		if !ok {
			fail("expression statement")
		}
		if n := callName(c); n == "t.Skip" || n == "t.Skipf" || n == "t.SkipNow" {
			fail("skipped upstream")
		}
		if n := callName(c); n == "require.NoError" && len(c.Args) == 2 {
			if inner, ok := c.Args[1].(*ast.CallExpr); ok {
				in.call(inner)
				return
			}
		}
		if n := callName(c); strings.HasPrefix(n, "require.") || strings.HasPrefix(n, "assert.") {
			if len(in.runs) > 0 && in.runs[len(in.runs)-1].wantErr {
				last := in.runs[len(in.runs)-1]
				last.errorHas = append(last.errorHas, errPhrases(c)...)
			}
			return
		}
		in.call(c)
	case *ast.AssignStmt:
		if len(x.Lhs) == 2 && len(x.Rhs) == 1 {
			if c, ok := x.Rhs[0].(*ast.CallExpr); ok && callName(c) == "os.ReadFile" {
				rel := in.str(c.Args[0])
				data, err := os.ReadFile(filepath.Join(in.src, rel))
				if err != nil || !strings.HasPrefix(path.Clean(rel), "testdata/") {
					fail("reads %s", rel)
				}
				in.vars[x.Lhs[0].(*ast.Ident).Name] = string(data)
				return
			}
		}
		if len(x.Lhs) == 2 && len(x.Rhs) == 1 {
			// `yaml, err := m.AsYaml()`: printing the build's result, which `kustomize build` does too —
			// so a test expecting that to fail is a failing build.
			if c, ok := x.Rhs[0].(*ast.CallExpr); ok && callName(c) == "m.AsYaml" {
				if id, ok := x.Lhs[0].(*ast.Ident); ok && id.Name == "_" && len(in.runs) > 0 {
					in.runs[len(in.runs)-1].wantErr = true
				}
				return
			}
		}
		if len(x.Lhs) != 1 || len(x.Rhs) != 1 {
			fail("multiple assignment")
		}
		lhs, ok := x.Lhs[0].(*ast.Ident)
		if !ok {
			fail("assignment to %T", x.Lhs[0])
		}
		if c, ok := x.Rhs[0].(*ast.CallExpr); ok {
			switch callName(c) {
			case "kusttest_test.MakeHarness":
				in.files = map[string]string{}
				return
			case "kusttest_test.MakeHarnessWithFs":
				if len(c.Args) == 2 && strings.Contains(fmt.Sprint(c.Args[1]), "MakeFsInMemory") {
					return
				}
				if id, ok := c.Args[1].(*ast.Ident); ok {
					if _, ok := in.vars[id.Name].(fileSystem); ok {
						in.files = map[string]string{}
						return
					}
				}
				// On disk or in memory, the case's files/ directory stands in for the harness's file system.
				if ce, ok := c.Args[1].(*ast.CallExpr); ok && (callName(ce) == "filesys.MakeFsInMemory" || callName(ce) == "filesys.MakeFsOnDisk") {
					in.files = map[string]string{}
					return
				}
				fail("harness on a real file system")
			case "kusttest_test.MakeEnhancedHarness", "kusttest_test.MakeEnhancedHarnessWithTmpRoot":
				in.files = map[string]string{}
				return
			case "th.MakeDefaultOptions", "th.MakeOptionsPluginsDisabled", "th.MakeOptionsPluginsEnabled":
				in.opts[lhs.Name] = in.options(c)
				return
			case "th.Run", "th.RunWithErr":
				in.call(c)
				return
			case "th.GetFSys":
				return
			case "filesys.MakeFsOnDisk", "filesys.MakeFsInMemory":
				in.vars[lhs.Name] = fileSystem{}
				return
			}
		}
		in.vars[lhs.Name] = in.value(x.Rhs[0])
	case *ast.IfStmt:
		// `if err := th.ErrIfNoHelm(); err != nil { t.Skip(...) }`: the pinned helm is always there.
		if as, ok := x.Init.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
			if c, ok := as.Rhs[0].(*ast.CallExpr); ok && callName(c) == "th.ErrIfNoHelm" {
				return
			}
		}
		// Only checks of a build's error are understood; their phrases become the case's.
		if len(in.runs) == 0 || !in.runs[len(in.runs)-1].wantErr {
			ast.Inspect(x, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && strings.HasPrefix(callName(c), "th.") {
					fail("build inside an if")
				}
				return true
			})
			return
		}
		last := in.runs[len(in.runs)-1]
		last.errorHas = append(last.errorHas, errPhrases(x.Cond)...)
	case *ast.RangeStmt:
		in.rangeStmt(x)
	case *ast.DeferStmt:
		if callName(x.Call) != "th.Reset" {
			fail("defer %s", callName(x.Call))
		}
	case *ast.DeclStmt, *ast.EmptyStmt:
		if gd, ok := x.(*ast.DeclStmt); ok {
			for _, spec := range gd.Decl.(*ast.GenDecl).Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					fail("declaration")
				}
				for i, n := range vs.Names {
					in.vars[n.Name] = in.value(vs.Values[i])
				}
			}
		}
	default:
		fail("statement %T", s)
	}
}

func packageScope(fset *token.FileSet, files []*ast.File) (map[string]string, map[string]*ast.FuncDecl) {
	consts := map[string]string{}
	helpers := map[string]*ast.FuncDecl{}
	probe := &interp{consts: consts, vars: map[string]any{}}
	// Until nothing new resolves: a constant may be the sum of others declared in later files.
	for before := -1; before != len(consts); {
		before = len(consts)
		evalConsts(probe, files, consts)
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if x, ok := d.(*ast.FuncDecl); ok && x.Recv == nil && !strings.HasPrefix(x.Name.Name, "Test") {
				helpers[x.Name.Name] = x
			}
		}
	}
	return consts, helpers
}

func evalConsts(probe *interp, files []*ast.File, consts map[string]string) {
	for _, f := range files {
		for _, d := range f.Decls {
			switch x := d.(type) {
			case *ast.GenDecl:
				for _, spec := range x.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok || len(vs.Values) != len(vs.Names) {
						continue
					}
					for i, n := range vs.Names {
						func() {
							defer func() { _ = recover() }()
							consts[n.Name] = probe.str(vs.Values[i])
						}()
					}
				}
			}
		}
	}
}

func main() {
	src := flag.String("src", "", "the sigs.k8s.io/kustomize/api module directory")
	out := flag.String("out", "", "where to write the cases")
	flag.Parse()
	fset := token.NewFileSet()
	names, _ := filepath.Glob(filepath.Join(*src, "krusty", "*_test.go"))
	sort.Strings(names)
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, n, nil, parser.ParseComments)
		if err != nil {
			panic(err)
		}
		files = append(files, f)
	}
	consts, helpers := packageScope(fset, files)
	expected := map[string]json.RawMessage{}
	if data, err := os.ReadFile("expected-errors.json"); err == nil {
		must(json.Unmarshal(data, &expected))
	}
	_ = os.RemoveAll(*out)
	skipped := map[string]string{}
	written := 0
	for i, f := range files {
		base := filepath.Base(names[i])
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Test") {
				continue
			}
			in := &interp{src: filepath.Join(*src, "krusty"), fset: fset, consts: consts, helpers: helpers, vars: map[string]any{},
				files: map[string]string{}, opts: map[string][]string{}}
			reason := func() (r string) {
				defer func() {
					if p := recover(); p != nil {
						u, ok := p.(unsupported)
						if !ok {
							panic(p)
						}
						r = u.reason
					}
				}()
				in.block(fd.Body.List)
				if len(in.runs) == 0 {
					return "runs no build"
				}
				return ""
			}()
			id := strings.TrimSuffix(base, "_test.go") + "--" + fd.Name.Name
			if reason != "" {
				skipped[id] = reason
				continue
			}
			if net := needsNetwork(in.runs); net != "" {
				skipped[id] = net
				continue
			}
			if p := needsPlugins(in.runs); p != "" {
				skipped[id] = p
				continue
			}
			if esc := escapesRoot(in.runs); esc != "" {
				skipped[id] = esc
				continue
			}
			for n, r := range in.runs {
				name := id
				if r.sub != "" {
					name = id + "--" + subtestName(r.sub)
				}
				if same := runsOf(in.runs, r.sub); same > 1 {
					name = fmt.Sprintf("%s--%d", name, n+1)
				}
				dir := filepath.Join(*out, name)
				for p, content := range r.files {
					target := filepath.Join(dir, "files", filepath.FromSlash(p))
					must(os.MkdirAll(filepath.Dir(target), 0o755))
					must(os.WriteFile(target, []byte(content), 0o644))
				}
				must(os.MkdirAll(filepath.Join(dir, "files", r.dir), 0o755))
				test := fd.Name.Name
				if r.sub != "" {
					test += "/" + r.sub
				}
				meta, _ := json.MarshalIndent(caseFile{
					Source: "sigs.k8s.io/kustomize/api/krusty/" + base, Test: test, Run: n + 1,
					Dir: r.dir, ExpectError: r.wantErr, ErrorHas: r.errorHas, Options: r.options,
				}, "", "  ")
				must(os.WriteFile(filepath.Join(dir, "case.json"), append(meta, '\n'), 0o644))
				if e, ok := expected[name]; ok && r.wantErr {
					pretty, _ := json.MarshalIndent(e, "", "  ")
					must(os.WriteFile(filepath.Join(dir, "expected-error.json"), append(pretty, '\n'), 0o644))
				}
				written++
			}
		}
	}
	list, _ := json.MarshalIndent(skipped, "", "  ")
	must(os.WriteFile(filepath.Join(*out, "skipped.json"), append(list, '\n'), 0o644))
	fmt.Printf("krusty cases: %d written, %d tests skipped\n", written, len(skipped))
}

// needsNetwork names a kustomization that loads something over the network (a remote base or schema).
func needsNetwork(runs []*run) string {
	for _, r := range runs {
		for p, content := range r.files {
			if path.Base(p) == "kustomization.yaml" && (strings.Contains(content, "https://") || strings.Contains(content, "http://") || strings.Contains(content, "oci://")) {
				return "needs the network (" + p + " loads a URL)"
			}
		}
	}
	return ""
}

// needsPlugins names a build run with plugins enabled that does not inflate helm charts: an exec or Go
// plugin, which flotilla never runs and kustomize cannot run without them being built.
func needsPlugins(runs []*run) string {
	for _, r := range runs {
		if len(r.options) == 0 {
			continue
		}
		for p, content := range r.files {
			if path.Base(p) == "kustomization.yaml" && (strings.Contains(content, "helmCharts:") || strings.Contains(content, "helmChartInflationGenerator:")) {
				return ""
			}
		}
		return "plugins enabled for a build without helm charts (an exec or Go plugin)"
	}
	return ""
}

// escapesRoot names a kustomization entry that climbs above the file system's root: the in-memory
// file system the tests use resolves /.. to /, which a real directory cannot reproduce.
func escapesRoot(runs []*run) string {
	for _, r := range runs {
		for p, content := range r.files {
			if path.Base(p) != "kustomization.yaml" {
				continue
			}
			depth := len(strings.Split(path.Dir(p), "/"))
			if path.Dir(p) == "." {
				depth = 0
			}
			for _, line := range strings.Split(content, "\n") {
				entry := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "-"))
				ups := 0
				for strings.HasPrefix(entry, "../") {
					ups++
					entry = entry[3:]
				}
				if ups > depth {
					return "relies on the in-memory file system's root (" + p + " reaches above /)"
				}
			}
		}
	}
	return ""
}

// legacyConfigs is what th.WriteLegacyConfigs writes: kustomize's default field specs, every section
// of internal/konfig/builtinpluginconsts one after another (the harness ranges over a Go map, so its
// order varies; kustomize sorts each section when it loads the file, so any order builds the same).
func legacyConfigs(krusty string) string {
	dir := filepath.Join(krusty, "..", "internal", "konfig", "builtinpluginconsts")
	fset := token.NewFileSet()
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		must(err)
		files = append(files, f)
	}
	consts, _ := packageScope(fset, files)
	src, err := os.ReadFile(filepath.Join(dir, "defaultconfig.go"))
	must(err)
	byKey := map[string]string{}
	for _, m := range regexp.MustCompile(`result\["(\w+)"\] = (\w+)`).FindAllStringSubmatch(string(src), -1) {
		byKey[m[1]] = m[2]
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out strings.Builder
	for _, k := range keys {
		v, ok := consts[byKey[k]]
		if !ok {
			fail("builtinpluginconsts has no %s", byKey[k])
		}
		out.WriteString(v)
	}
	return out.String()
}

// copyTestdata copies a directory of the krusty package's testdata into the case (copyutil.CopyDir).
func (in *interp) copyTestdata(from, to string) {
	if !strings.HasPrefix(path.Clean(from), "testdata/") {
		fail("copies %s", from)
	}
	root := filepath.Join(in.src, from)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		in.files[clean(path.Join(to, filepath.ToSlash(rel)))] = string(data)
		return err
	})
	if err != nil {
		fail("copies %s: %v", from, err)
	}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
