package workdir

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/zclconf/go-cty/cty"
)

// VarArg is one -var (NAME=VALUE) or -var-file (File, a path) argument.
type VarArg struct {
	File  bool
	Value string
}

// Asker asks for the value of a required root variable that has none, by
// its name and description; an error with no answer stops the asking.
type Asker func(name, description string) (string, error)

// Variables gathers root variable values in OpenTofu's order of
// precedence (later wins): TF_VAR_ environment variables, terraform.tfvars,
// terraform.tfvars.json, *.auto.tfvars(.json) in lexical order, then -var
// and -var-file in command-line order; then ask (nil: nobody) is asked for
// each required variable still without a value. files are the variable
// files read, for diagnostics.
//
// The values are collected once per Dir: a later call (after the static
// evaluation of the configuration asked for them) returns copies of the
// same values and files, without diagnostics or questions.
func (d *Dir) Variables(cfg *config.Module, args []VarArg, ask Asker) (values map[string]planner.InputValue, files map[string][]byte, ds diag.Diagnostics) {
	if values, files, ok := d.cachedVariables(); ok {
		return values, files, nil
	}
	values, files, ds = d.gatherVariables(cfg, args, ask)
	d.given = &givenVariables{values: maps.Clone(values), files: maps.Clone(files)}
	return values, files, ds
}

func (d *Dir) gatherVariables(cfg *config.Module, args []VarArg, ask Asker) (values map[string]planner.InputValue, files map[string][]byte, ds diag.Diagnostics) {
	out := map[string]planner.InputValue{}
	files = map[string][]byte{}
	for _, env := range os.Environ() {
		name, raw, ok := strings.Cut(env, "=")
		if !ok || !strings.HasPrefix(name, "TF_VAR_") {
			continue
		}
		name = strings.TrimPrefix(name, "TF_VAR_")
		v, more := parseRawVariable(cfg, name, raw, planner.SourceEnv)
		ds = ds.Append(more)
		if !more.HasErrors() {
			out[name] = planner.InputValue{Value: v, SourceType: planner.SourceEnv}
		}
	}
	var found []string
	for _, f := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if _, err := os.Stat(d.path(f)); err == nil {
			found = append(found, d.path(f))
		}
	}
	globbed, _ := filepath.Glob(d.path("*.auto.tfvars"))
	globbedJSON, _ := filepath.Glob(d.path("*.auto.tfvars.json"))
	globbed = append(globbed, globbedJSON...)
	sort.Strings(globbed)
	found = append(found, globbed...)
	for _, f := range found {
		ds = ds.Append(loadVarFile(f, out, files, "a .tfvars file"))
	}
	ds = ds.Append(parseFlagVariables(cfg, args, out, files))
	if ask != nil {
		ds = ds.Append(askRequired(cfg, out, ask))
	}
	return out, files, ds
}

// parseFlagVariables reads the values -var and -var-file (args) give, in
// order, into out, and the files' sources into files.
func parseFlagVariables(cfg *config.Module, args []VarArg, out map[string]planner.InputValue, files map[string][]byte) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, arg := range args {
		if arg.File {
			ds = ds.Append(loadVarFile(arg.Value, out, files, "-var-file"))
			continue
		}
		name, raw, ok := strings.Cut(arg.Value, "=")
		if !ok || name == "" {
			ds = ds.Append(diag.Errorf("Invalid -var option",
				"The given -var option %q is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".", arg.Value))
			continue
		}
		v, more := parseRawVariable(cfg, name, raw, "-var")
		ds = ds.Append(more)
		if !more.HasErrors() {
			out[name] = planner.InputValue{Value: v, SourceType: planner.SourceCLI}
		}
	}
	return ds
}

// parseRawVariable interprets a string from the command line or the
// environment: literally for a variable of primitive type, one declared
// without a type, or one not declared, as an HCL expression otherwise (a
// complex type, or any), as OpenTofu and Terraform do.
func parseRawVariable(cfg *config.Module, name, raw, source string) (cty.Value, diag.Diagnostics) {
	v, declared := cfg.Variables[name]
	if !declared || !v.TypeGiven || v.Type.IsPrimitiveType() {
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

// loadVarFile reads a .tfvars (HCL) or .tfvars.json file into out, and
// its source into files.
func loadVarFile(path string, out map[string]planner.InputValue, files map[string][]byte, source string) diag.Diagnostics {
	src, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return diag.Diagnostics{diag.Errorf("Failed to read variables file", "Given variables file %s does not exist.", path)}
		}
		return diag.Diagnostics{diag.Errorf("Failed to read variables file", "Error while reading %s: %s.", path, err)}
	}
	files[path] = src
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
	ds = ds.Append(diag.FromHCL(hds))
	for name, attr := range attrs {
		v, hds := attr.Expr.Value(nil)
		ds = ds.Append(diag.FromHCL(hds))
		if !hds.HasErrors() {
			out[name] = planner.InputValue{Value: v, SourceType: source, File: path}
		}
	}
	return ds
}

// askRequired asks for required variables that have no value yet.
func askRequired(cfg *config.Module, out map[string]planner.InputValue, ask Asker) diag.Diagnostics {
	var names []string
	for name, v := range cfg.Variables {
		if _, ok := out[name]; !ok && v.Required() {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var ds diag.Diagnostics
	for _, name := range names {
		line, err := ask(name, cfg.Variables[name].Description)
		if err != nil && line == "" {
			return ds
		}
		val, more := parseRawVariable(cfg, name, line, "input")
		ds = ds.Append(more)
		if !more.HasErrors() {
			out[name] = planner.InputValue{Value: val, SourceType: planner.SourceInput}
		}
	}
	return ds
}
