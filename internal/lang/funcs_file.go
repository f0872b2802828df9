package lang

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// readError describes why path could not be read, naming it as the
// configuration wrote it rather than as resolved.
func readError(path string, err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s %s: %s", pe.Op, path, pe.Err)
	}
	return err.Error()
}

// resolvePath expands a leading "~" and makes a relative path relative to baseDir.
func resolvePath(baseDir, path string) (string, error) {
	path, err := expandHome(path)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(baseDir, path)
	}
	return filepath.Clean(path), nil
}

func expandHome(path string) (string, error) {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, strings.TrimPrefix(path, "~")), nil
}

func readFile(baseDir, path string) ([]byte, error) {
	full, err := resolvePath(baseDir, path)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(full)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, function.NewArgErrorf(0, "no file exists at %q; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource", path)
		}
		return nil, function.NewArgErrorf(0, "failed to read file: %s", readError(path, err))
	}
	return src, nil
}

// notUTF8Error is the error of file and templatefile for a file that is not
// UTF-8 text, an error of the call as in OpenTofu.
func notUTF8Error(path string) error {
	return fmt.Errorf("contents of %q are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead", path)
}

// fileFunc is file (UTF-8 text) or, with encode, filebase64.
func fileFunc(baseDir string, encode bool) function.Function {
	return function.New(&function.Spec{
		Params: stringParams("path"),
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			path := args[0].AsString()
			src, err := readFile(baseDir, path)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			if encode {
				return cty.StringVal(base64.StdEncoding.EncodeToString(src)), nil
			}
			if !utf8.Valid(src) {
				return cty.UnknownVal(cty.String), notUTF8Error(path)
			}
			return cty.StringVal(string(src)), nil
		},
	})
}

func fileHashFunc(baseDir string, hash func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params: stringParams("path"),
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			src, err := readFile(baseDir, args[0].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(hash(src)), nil
		},
	})
}

func fileExistsFunc(baseDir string) function.Function {
	return function.New(&function.Spec{
		Params: stringParams("path"),
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			path := args[0].AsString()
			full, err := resolvePath(baseDir, path)
			if err != nil {
				return cty.UnknownVal(cty.Bool), err
			}
			fi, err := os.Stat(full)
			if err != nil {
				if os.IsNotExist(err) {
					return cty.False, nil
				}
				return cty.UnknownVal(cty.Bool), fmt.Errorf("failed to stat %q", path)
			}
			if fi.Mode().IsRegular() {
				return cty.True, nil
			}
			if fi.IsDir() {
				return cty.False, fmt.Errorf("%q is a directory, not a file", path)
			}
			return cty.False, fmt.Errorf("%s is not a regular file, but %q", path, fi.Mode().String())
		},
	})
}

var (
	absPathFunc = namedStringToString("path", func(s string) (string, error) {
		abs, err := filepath.Abs(s)
		return filepath.ToSlash(abs), err
	})
	baseNameFunc   = namedStringToString("path", func(s string) (string, error) { return filepath.Base(s), nil })
	dirNameFunc    = namedStringToString("path", func(s string) (string, error) { return filepath.Dir(s), nil })
	pathExpandFunc = namedStringToString("path", expandHome)
)

// templateFileFunc renders a template file with the given variables; the
// template may call any function, templatefile too, as OpenTofu allows,
// down to maxTemplateDepth nested calls.
func templateFileFunc(baseDir string, funcs func() map[string]function.Function) function.Function {
	return templateFileFuncAt(baseDir, funcs, 0)
}

// templateFileFuncAt is templatefile called within depth templates.
func templateFileFuncAt(baseDir string, funcs func() map[string]function.Function, depth int) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "path", Type: cty.String},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if !args[1].Type().IsObjectType() && !args[1].Type().IsMapType() && args[1].Type() != cty.DynamicPseudoType {
				return cty.DynamicPseudoType, function.NewArgErrorf(1, "invalid vars value: must be a map")
			}
			return cty.DynamicPseudoType, nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			limit, err := templateDepthLimit()
			if err != nil {
				return cty.DynamicVal, err
			}
			if depth > limit {
				return cty.DynamicVal, &templateDepthError{limit: limit}
			}
			path := args[0].AsString()
			src, err := readFile(baseDir, path)
			if err != nil {
				return cty.DynamicVal, err
			}
			if !utf8.Valid(src) {
				return cty.DynamicVal, notUTF8Error(path)
			}
			expr, diags := hclsyntax.ParseTemplate(src, path, hcl.InitialPos)
			if diags.HasErrors() {
				return cty.DynamicVal, function.NewArgErrorf(0, "failed to parse template: %s", diags.Error())
			}
			vars := args[1]
			if !vars.IsWhollyKnown() {
				return cty.DynamicVal, nil
			}
			if vars.IsNull() {
				return cty.DynamicVal, function.NewArgErrorf(1, "invalid vars value: must not be null")
			}
			all := funcs()
			fns := make(map[string]function.Function, len(all))
			for name, f := range all {
				fns[name] = f
			}
			nested := templateFileFuncAt(baseDir, funcs, depth+1)
			fns["templatefile"], fns[coreNamespace+"templatefile"] = nested, nested
			v, err := renderTemplate(expr, vars, fns, true)
			if deep := templateDepthIn(err); deep != nil {
				// Passed up with this level's call site, not wrapped in
				// each level's message.
				return cty.DynamicVal, deep
			}
			return v, err
		},
	})
}

// maxTemplateDepth is how deep templatefile calls may nest, as in OpenTofu,
// unless TF_TEMPLATE_RECURSION_DEPTH says otherwise.
const maxTemplateDepth = 1024

// templateDepthLimit is how deep templatefile calls may nest: as OpenTofu,
// TF_TEMPLATE_RECURSION_DEPTH when set (an integer), else maxTemplateDepth.
func templateDepthLimit() (int, error) {
	const key = "TF_TEMPLATE_RECURSION_DEPTH"
	v := os.Getenv(key)
	if v == "" {
		return maxTemplateDepth, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("invalid value for %s: %w", key, err)
	}
	return n, nil
}

// templateDepthError is the error of a templatefile call nested too deep
// (past limit): sources are the places of the calls that led to it, the
// innermost first, one added by each template as the error passes up
// through it.
type templateDepthError struct {
	limit   int
	sources []string
}

// maxTemplateTrace is how many call sites the message lists at most.
const maxTemplateTrace = 16

// Error lists, as OpenTofu does, the innermost call sites up to the first
// one repeated (a loop), at most maxTemplateTrace of them, and the depth
// reached.
func (e *templateDepthError) Error() string {
	if len(e.sources) == 0 {
		return fmt.Sprintf("maximum recursion depth %d reached", e.limit)
	}
	var trace []string
	for _, src := range e.sources[:min(maxTemplateTrace, len(e.sources))] {
		repeated := slices.Contains(trace, src)
		trace = append(trace, src)
		if repeated {
			break
		}
	}
	return fmt.Sprintf("maximum recursion depth %d reached in %s ... ", len(e.sources)-1, strings.Join(trace, ", "))
}

// templateDepthIn returns the templateDepthError among the diagnostics of
// rendering a template, with the place of the call that failed added.
func templateDepthIn(err error) *templateDepthError {
	diags, ok := err.(hcl.Diagnostics)
	if !ok {
		return nil
	}
	for _, d := range diags {
		extra, ok := d.Extra.(hclsyntax.FunctionCallDiagExtra)
		if !ok {
			continue
		}
		var deep *templateDepthError
		if errors.As(extra.FunctionCallError(), &deep) {
			if d.Subject != nil {
				deep.sources = append(deep.sources, d.Subject.String())
			}
			return deep
		}
	}
	return nil
}
