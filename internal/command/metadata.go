package command

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty/function"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/lang"
)

// notListedFunctions are in the function table but not for configurations:
// list and map only say they were removed, type works in the console only.
var notListedFunctions = []string{"list", "map", "type"}

func runMetadataFunctions(m *Meta, args []string) int {
	fs := m.flagSet("metadata functions")
	jsonOut := fs.Bool("json", false, "Print the signatures as JSON; required.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The "+fs.Name()+" command takes no arguments.")
	}
	if !*jsonOut {
		return m.argsError(fs, "Invalid arguments", "The `rig metadata functions` command requires the `-json` flag.")
	}
	b, ds := marshalFunctions(lang.Functions("."))
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	fmt.Fprintln(m.Out, string(b))
	return 0
}

// marshalFunctions describes every function of fns but those
// notListedFunctions names, under its name and its core:: name.
func marshalFunctions(fns map[string]function.Function) ([]byte, diag.Diagnostics) {
	var ds diag.Diagnostics
	out := jsonformat.FunctionSignatures{FormatVersion: "1.0", Signatures: map[string]*jsonformat.Function{}}
	for name, f := range fns {
		if slices.Contains(notListedFunctions, strings.TrimPrefix(name, "core::")) {
			continue
		}
		sig, err := jsonformat.NewFunction(strings.TrimPrefix(name, "core::"), f)
		if err != nil {
			ds = ds.Append(diag.Errorf(fmt.Sprintf("Failed to serialize function %q", name), "%s", err))
			continue
		}
		out.Signatures[name] = sig
	}
	if ds.HasErrors() {
		return nil, ds
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, ds.Append(diag.Errorf("Failed to serialize functions", "%s", err))
	}
	return b, ds
}
