// Table-driven tests: `testCases := map[string]struct{...}{...}`, `for name, tc := range testCases {
// t.Run(name, func(t) {...}) }`, lists of file-writing functions (`[]FileGen{writeBase, writeK(...)}`)
// called as `f(th)`. Values are strings, []any, map[string]any (maps and struct literals) and fnVal.
package main

import (
	"go/ast"
	"go/token"
	"regexp"
	"sort"
	"strconv"
)

// fnVal is a function value: a package helper, or a function literal with the variables it captured.
type fnVal struct {
	decl *ast.FuncDecl
	lit  *ast.FuncLit
	env  map[string]any
}

func (in *interp) value(e ast.Expr) any {
	switch x := e.(type) {
	case *ast.Ident:
		if v, ok := in.vars[x.Name]; ok {
			return v
		}
		if x.Name == "true" || x.Name == "false" {
			return x.Name == "true"
		}
		if fd, ok := in.helpers[x.Name]; ok {
			return fnVal{decl: fd}
		}
	case *ast.CompositeLit:
		return in.composite(x)
	case *ast.SelectorExpr:
		if m, ok := in.value(x.X).(map[string]any); ok {
			if v, ok := m[x.Sel.Name]; ok {
				return v
			}
			return "" // a field the literal leaves out is the zero value
		}
	case *ast.IndexExpr:
		switch coll := in.value(x.X).(type) {
		case []any:
			if i, ok := in.value(x.Index).(int); ok && i >= 0 && i < len(coll) {
				return coll[i]
			}
		case map[string]any:
			return coll[in.str(x.Index)]
		}
	case *ast.BasicLit:
		if x.Kind == token.INT {
			n, _ := strconv.Atoi(x.Value)
			return n
		}
	case *ast.FuncLit:
		return fnVal{lit: x, env: in.copyVars()}
	case *ast.CallExpr:
		if fd, ok := in.helpers[callName(x)]; ok && returnsFunc(fd) {
			return in.closure(fd, x)
		}
	}
	if u, ok := in.lookupUnevaluated(e); ok {
		fail("%s", u.reason)
	}
	return in.str(e)
}

// unevaluated stands for a table field the extractor cannot evaluate (say, an expected error built
// from a Go error value); the test fails to extract only if it is used.
type unevaluated struct{ reason string }

func (in *interp) lookupUnevaluated(e ast.Expr) (unevaluated, bool) {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return unevaluated{}, false
	}
	m, ok := in.value(sel.X).(map[string]any)
	if !ok {
		return unevaluated{}, false
	}
	u, ok := m[sel.Sel.Name].(unevaluated)
	return u, ok
}

// lenient evaluates a table field, keeping what it cannot evaluate as an unevaluated marker.
func (in *interp) lenient(e ast.Expr) (v any) {
	defer func() {
		if p := recover(); p != nil {
			u, ok := p.(unsupported)
			if !ok {
				panic(p)
			}
			v = unevaluated{u.reason}
		}
	}()
	return in.value(e)
}

func (in *interp) copyVars() map[string]any {
	env := map[string]any{}
	for k, v := range in.vars {
		env[k] = v
	}
	return env
}

func (in *interp) composite(x *ast.CompositeLit) any {
	_, isMap := x.Type.(*ast.MapType)
	_, isList := x.Type.(*ast.ArrayType)
	keyed := len(x.Elts) > 0
	for _, el := range x.Elts {
		if _, ok := el.(*ast.KeyValueExpr); !ok {
			keyed = false
		}
	}
	if isList || (!isMap && !keyed && x.Type == nil) {
		out := []any{}
		for _, el := range x.Elts {
			out = append(out, in.value(el))
		}
		return out
	}
	out := map[string]any{}
	for _, el := range x.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			fail("a composite literal mixing keyed and unkeyed elements")
		}
		key := ""
		if id, ok := kv.Key.(*ast.Ident); ok && !isMap {
			key = id.Name // a struct field
		} else {
			key = in.str(kv.Key)
		}
		out[key] = in.lenient(kv.Value)
	}
	return out
}

// returnsFunc: a helper whose body is `return func(...) {...}` or `return otherHelper(...)`.
func returnsFunc(fd *ast.FuncDecl) bool {
	body := fd.Body.List
	if len(body) != 1 || fd.Type.Results == nil {
		return false
	}
	ret, ok := body[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	switch ret.Results[0].(type) {
	case *ast.FuncLit, *ast.CallExpr:
		return true
	}
	return false
}

// closure evaluates writeK("dir", "...") to the function value it returns, with its parameters bound.
func (in *interp) closure(fd *ast.FuncDecl, c *ast.CallExpr) any {
	env := in.copyVars()
	i := 0
	for _, field := range fd.Type.Params.List {
		for _, n := range field.Names {
			if i >= len(c.Args) {
				fail("helper arity")
			}
			env[n.Name] = in.value(c.Args[i])
			i++
		}
	}
	result := fd.Body.List[0].(*ast.ReturnStmt).Results[0]
	if lit, ok := result.(*ast.FuncLit); ok {
		return fnVal{lit: lit, env: env}
	}
	saved := in.vars
	in.vars = env
	defer func() { in.vars = saved }()
	return in.value(result)
}

// invoke calls a function value as f(th).
func (in *interp) invoke(f fnVal, c *ast.CallExpr) {
	if f.decl != nil {
		in.inline(f.decl, c)
		return
	}
	saved := in.vars
	in.vars = map[string]any{}
	for k, v := range f.env {
		in.vars[k] = v
	}
	in.block(f.lit.Body.List)
	in.vars = saved
}

func (in *interp) rangeStmt(x *ast.RangeStmt) {
	key, _ := x.Key.(*ast.Ident)
	val, _ := x.Value.(*ast.Ident)
	bind := func(k, v any) {
		if key != nil && key.Name != "_" {
			in.vars[key.Name] = k
		}
		if val != nil && val.Name != "_" {
			in.vars[val.Name] = v
		}
		in.block(x.Body.List)
	}
	switch coll := in.value(x.X).(type) {
	case map[string]any:
		keys := make([]string, 0, len(coll))
		for k := range coll {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			bind(k, coll[k])
		}
	case []any:
		for i, v := range coll {
			bind(i, v)
		}
	default:
		fail("range over something the extractor cannot evaluate")
	}
}

// subtest interprets t.Run(name, func(t) {...}); its builds are named after it.
func (in *interp) subtest(c *ast.CallExpr) {
	lit, ok := c.Args[1].(*ast.FuncLit)
	if !ok {
		fail("t.Run without a function literal")
	}
	saved := in.sub
	in.sub = in.str(c.Args[0])
	in.block(lit.Body.List)
	in.sub = saved
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func subtestName(s string) string { return unsafeChars.ReplaceAllString(s, "_") }

func runsOf(runs []*run, sub string) int {
	n := 0
	for _, r := range runs {
		if r.sub == sub {
			n++
		}
	}
	return n
}
