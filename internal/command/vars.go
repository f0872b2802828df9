package command

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
)

// varFlag is one -var or -var-file argument, kept in command-line order.
type varFlag struct {
	file  bool
	value string
}

type varFlagValue struct {
	items *[]varFlag
	file  bool
}

func (v varFlagValue) String() string { return "" }
func (v varFlagValue) Set(s string) error {
	*v.items = append(*v.items, varFlag{file: v.file, value: s})
	return nil
}

// collectVariables gathers root variable values in OpenTofu's order of
// precedence (later wins): TF_VAR_ environment variables, terraform.tfvars,
// terraform.tfvars.json, *.auto.tfvars(.json) in lexical order, then -var
// and -var-file in command-line order.
func (m *Meta) collectVariables(cfg *config.Module, flags []varFlag) (map[string]planner.InputValue, diag.Diagnostics) {
	var ds diag.Diagnostics
	out := map[string]planner.InputValue{}
	for _, env := range os.Environ() {
		name, raw, ok := strings.Cut(env, "=")
		if !ok || !strings.HasPrefix(name, "TF_VAR_") {
			continue
		}
		name = strings.TrimPrefix(name, "TF_VAR_")
		v, more := parseRawVariable(cfg, name, raw, "an environment variable")
		ds = ds.Append(more)
		if !more.HasErrors() {
			out[name] = planner.InputValue{Value: v, SourceType: "an environment variable"}
		}
	}
	var files []string
	for _, f := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if _, err := os.Stat(f); err == nil {
			files = append(files, f)
		}
	}
	auto, _ := filepath.Glob("*.auto.tfvars")
	autoJSON, _ := filepath.Glob("*.auto.tfvars.json")
	auto = append(auto, autoJSON...)
	sort.Strings(auto)
	files = append(files, auto...)
	for _, f := range files {
		ds = ds.Append(m.loadVarFile(f, out, "a .tfvars file"))
	}
	for _, fl := range flags {
		if fl.file {
			ds = ds.Append(m.loadVarFile(fl.value, out, "-var-file"))
			continue
		}
		name, raw, ok := strings.Cut(fl.value, "=")
		if !ok || name == "" {
			ds = ds.Append(diag.Errorf("Invalid -var option",
				"The given -var option %q is not correctly specified. It must be a variable name and value separated by an equals sign, like -var=\"key=value\".", fl.value))
			continue
		}
		v, more := parseRawVariable(cfg, name, raw, "-var")
		ds = ds.Append(more)
		if !more.HasErrors() {
			out[name] = planner.InputValue{Value: v, SourceType: "-var"}
		}
	}
	if m.inputAllowed() {
		ds = ds.Append(m.promptRequired(cfg, out))
	}
	return out, ds
}

// parseRawVariable interprets a string from the command line or the
// environment: literally for a variable of primitive type (or undeclared),
// as an HCL expression otherwise, as OpenTofu does.
func parseRawVariable(cfg *config.Module, name, raw, source string) (cty.Value, diag.Diagnostics) {
	v, declared := cfg.Variables[name]
	if !declared || v.Type.IsPrimitiveType() || v.Type == cty.DynamicPseudoType && !looksLikeExpression(raw) {
		return cty.StringVal(raw), nil
	}
	expr, hds := hclsyntax.ParseExpression([]byte(raw), fmt.Sprintf("<value for var.%s>", name), hcl.Pos{Line: 1, Column: 1})
	if hds.HasErrors() {
		return cty.NilVal, diag.FromHCL(hds)
	}
	val, hds := expr.Value(nil)
	if hds.HasErrors() {
		return cty.NilVal, diag.FromHCL(hds)
	}
	return val, nil
}

func looksLikeExpression(raw string) bool {
	t := strings.TrimSpace(raw)
	return strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{")
}

// loadVarFile reads a .tfvars (HCL) or .tfvars.json file into out.
func (m *Meta) loadVarFile(path string, out map[string]planner.InputValue, source string) diag.Diagnostics {
	src, err := os.ReadFile(path)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to read variables file", "Given variables file %s does not exist or cannot be read: %s.", path, err)}
	}
	if m.sources == nil {
		m.sources = map[string][]byte{}
	}
	m.sources[path] = src
	var f *hcl.File
	var hds hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		f, hds = hcljson.Parse(src, path)
	} else {
		f, hds = hclsyntax.ParseConfig(src, path, hcl.Pos{Line: 1, Column: 1})
	}
	ds := diag.FromHCL(hds)
	if f == nil || hds.HasErrors() {
		return ds
	}
	attrs, hds := f.Body.JustAttributes()
	ds = ds.Append(hds)
	for name, attr := range attrs {
		v, hds := attr.Expr.Value(nil)
		ds = ds.Append(hds)
		if !hds.HasErrors() {
			out[name] = planner.InputValue{Value: v, SourceType: source}
		}
	}
	return ds
}

// promptRequired asks for required variables that have no value yet.
func (m *Meta) promptRequired(cfg *config.Module, out map[string]planner.InputValue) diag.Diagnostics {
	var names []string
	for name, v := range cfg.Variables {
		if _, ok := out[name]; !ok && v.Required() {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var ds diag.Diagnostics
	for _, name := range names {
		v := cfg.Variables[name]
		fmt.Fprintf(m.Out, "var.%s\n", name)
		if v.Description != "" {
			fmt.Fprintf(m.Out, "  %s\n", v.Description)
		}
		fmt.Fprintf(m.Out, "\n  Enter a value: ")
		line, err := readLine(m.In)
		fmt.Fprintln(m.Out)
		if err != nil && line == "" {
			return ds
		}
		val, more := parseRawVariable(cfg, name, line, "input")
		ds = ds.Append(more)
		if !more.HasErrors() {
			out[name] = planner.InputValue{Value: val, SourceType: "input"}
		}
	}
	return ds
}
