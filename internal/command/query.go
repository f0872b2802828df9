package command

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"strconv"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/ui"
)

// runQuery is `rig query` (Terraform 1.14): it runs the list blocks of
// the working directory's query files (*.tfquery.hcl) and prints what
// exists; -generate-config-out=FILE writes a resource and an import
// block for each object found.
func runQuery(m *Meta, args []string) int {
	var f operationFlags
	fs := m.flagSet("query")
	addVarFlags(fs, &f.vars)
	fs.Func("parallelism", "Query at most `N` list block instances at once (default 10, or parallelism in rig.hcl).", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("want a whole number greater than zero")
		}
		f.parallelism, f.parallelismSet = n, true
		return nil
	})
	var stream streamFlags
	fs.BoolVar(&stream.json, "json", false, "Print machine-readable output: one JSON message a line (list_start, list_resource_found, list_complete), as Terraform writes them; implies -input=false.")
	genOut := fs.String("generate-config-out", "", "Write a resource block and an import block (by the object's identity) for every object found into the new file at `PATH`.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The query command takes no positional arguments. To run it in another working directory, use the global -chdir option.")
	}
	if !m.startTypedStream(stream) {
		return 1
	}
	defer m.endStream()
	m.queryFiles = true
	var ds diag.Diagnostics
	if *genOut != "" {
		if _, err := os.Stat(*genOut); !errors.Is(err, iofs.ErrNotExist) {
			m.showDiagnostics(ds.Append(diag.Errorf("Target generated file already exists",
				"rig can only write generated config into a new file. Either choose a different target location or move all existing configuration out of the target file, delete it and try again.")))
			return 1
		}
	}
	ctx, stop := m.interrupts.Notify(nil)
	defer stop()
	f.lock = false // a query changes no state
	// Shown with the query's other diagnostics, after its results.
	ds = ds.Append(m.dir().DevOverridesWarning())
	sess, more := m.open(ctx, &f, "OperationTypeQuery")
	defer sess.Close()
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if len(sess.Config.ListResources) == 0 {
		m.showDiagnostics(ds.Append(diag.Errorf("No resources to query",
			"The configuration does not contain any resources that can be queried: rig query runs the list blocks of the *.tfquery.hcl files.")))
		return 1
	}
	human := ui.NewQueryView(m.Out, ui.RenderOptions{Color: m.Color})
	var hooks plan.QueryHooks = human
	var jsonView *ui.QueryJSONView
	if m.stream != nil && stream.json {
		jsonView = &ui.QueryJSONView{View: m.stream.View, Generated: map[string][]plan.GeneratedQueryResource{}}
		hooks = generatingHooks{QueryHooks: jsonView, into: jsonView.Generated, on: *genOut != ""}
	}
	results, more := planner.Query(ctx, sess.Config, sess.State, sess.Providers, planner.QueryOptions{
		Options:         planner.Options{Variables: sess.Variables, Env: sess.Env, Dependencies: sess.Dependencies, Parallelism: sess.Parallelism},
		IncludeResource: *genOut != "",
		Hooks:           hooks,
	})
	ds = ds.Append(more)
	if jsonView == nil {
		human.Done()
	}
	if *genOut != "" && len(results) > 0 {
		if err := os.WriteFile(*genOut, planner.QueryGeneratedFile(results), 0o644); err != nil {
			ds = ds.Append(diag.Errorf("Failed to create target generated file",
				"rig could not create the generated file (%s): %v.", *genOut, err))
		}
	}
	m.showDiagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	return 0
}

// generatingHooks generates each list block's configuration before the
// JSON view reports its objects, so that each message carries its own.
type generatingHooks struct {
	plan.QueryHooks
	into map[string][]plan.GeneratedQueryResource
	on   bool
}

func (h generatingHooks) PostList(res plan.ListResult) {
	if h.on {
		h.into[res.Addr.String()] = planner.GenerateListed(res)
	}
	h.QueryHooks.PostList(res)
}
