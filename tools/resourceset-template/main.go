// resourceset-template renders Flux Operator ResourceSet templates with the operator's own template
// setup (internal/builder/resourceset.go of github.com/controlplaneio-fluxcd/flux-operator, copied
// because the package is internal and the module needs Go 1.27): Go text/template with `<<` `>>`
// delimiters, slim-sprig's hermetic functions, slugify (gosimple/slug, 63 characters, smart
// truncate), inputs, toYaml/mustToYaml, missingkey=error. flotilla's parity test feeds it a corpus
// on stdin and compares its answers with flotilla's TypeScript engine, byte for byte.
//
// stdin:  [{"name": "...", "template": "...", "resource": {...}, "inputs": {...} | null}]
// stdout: [{"name": "...", "output": "...", "error": "..."}]
//
// `resourceset-template extract <module.zip> <prefix>...` prints {"path": "content"} for the files of a
// downloaded module zip under the prefixes: the parity test reads the operator's own test data and
// docs from the pinned module without a copy in flotilla's tree.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/template"

	sprig "github.com/go-task/slim-sprig/v3"
	"github.com/gosimple/slug"
	"sigs.k8s.io/yaml"
)

type request struct {
	Name     string          `json:"name"`
	Template string          `json:"template"`
	Resource json.RawMessage `json:"resource"`
	Inputs   json.RawMessage `json:"inputs"`
}

type answer struct {
	Name   string `json:"name"`
	Output string `json:"output"`
	Error  string `json:"error,omitempty"`
}

func main() {
	if len(os.Args) > 2 && os.Args[1] == "extract" {
		if err := extract(os.Args[2], os.Args[3:]); err != nil {
			fmt.Fprintf(os.Stderr, "resourceset-template: %v\n", err)
			os.Exit(1)
		}
		return
	}
	slug.MaxLength = 63
	slug.EnableSmartTruncate = true
	var reqs []request
	if err := json.NewDecoder(os.Stdin).Decode(&reqs); err != nil {
		fmt.Fprintf(os.Stderr, "resourceset-template: stdin is not a JSON array of requests: %v\n", err)
		os.Exit(2)
	}
	answers := make([]answer, 0, len(reqs))
	for _, r := range reqs {
		out, err := render(r)
		a := answer{Name: r.Name, Output: out}
		if err != nil {
			a.Error = err.Error()
		}
		answers = append(answers, a)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(answers); err != nil {
		fmt.Fprintf(os.Stderr, "resourceset-template: %v\n", err)
		os.Exit(1)
	}
}

func render(r request) (string, error) {
	var inputSet map[string]any
	if len(r.Inputs) > 0 && string(r.Inputs) != "null" {
		v, err := decodeJSON(r.Inputs)
		if err != nil {
			return "", err
		}
		inputSet = v.(map[string]any)
	}
	text := r.Template
	if len(r.Resource) > 0 {
		// BuildResource: the JSON resource becomes YAML text, and that text is the template.
		y, err := yaml.JSONToYAML(r.Resource)
		if err != nil {
			return "", fmt.Errorf("failed to convert template to YAML: %w", err)
		}
		text = string(y)
	}
	tp, err := newTemplate(text, inputSet)
	if err != nil {
		return "", err
	}
	b := &strings.Builder{}
	if err := tp.Execute(b, nil); err != nil {
		return b.String(), err
	}
	return b.String(), nil
}

// newTemplate is the operator's, as written in internal/builder/resourceset.go.
func newTemplate(yamlTemplate string, inputSet map[string]any) (*template.Template, error) {
	return template.New("resourceset").
		Delims("<<", ">>").
		Funcs(sprig.HermeticTxtFuncMap()).
		Funcs(template.FuncMap{"slugify": slug.Make}).
		Funcs(template.FuncMap{"inputs": func() any { return inputSet }}).
		Funcs(template.FuncMap{"toYaml": toYaml, "mustToYaml": mustToYaml}).
		Option("missingkey=error").
		Parse(yamlTemplate)
}

func toYaml(v any) string {
	if b, err := mustToYaml(v); err == nil {
		return b
	}
	return ""
}

func mustToYaml(v any) (string, error) {
	b, err := yaml.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// decodeJSON decodes as k8s.io/apimachinery/pkg/util/json.Unmarshal does (the operator reads inputs
// with it): whole numbers become int64, others float64.
func decodeJSON(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return convert(v), nil
}

func convert(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = convert(e)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = convert(e)
		}
		return t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

func extract(zipPath string, prefixes []string) error {
	r, err := zip.OpenReader(zipPath)
	if err != nil {
		return err
	}
	defer r.Close()
	files := map[string]string{}
	for _, f := range r.File {
		for _, p := range prefixes {
			if !strings.Contains(f.Name, "/"+p) {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return err
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return err
			}
			files[f.Name[strings.Index(f.Name, "/"+p)+1:]] = string(b)
		}
	}
	return json.NewEncoder(os.Stdout).Encode(files)
}
