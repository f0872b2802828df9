package command

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"golang.org/x/term"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
)

// consoleFile is the file name console expressions are parsed under.
const consoleFile = "<console-input>"

// runConsole evaluates expressions read from standard input against the
// configuration and the state, printing each value as `tofu console`
// does. An expression ends with its line unless a bracket, brace or
// parenthesis is still open or the line ends with a backslash. At a
// terminal an expression's errors are shown and the next one read; from
// a pipe or a file, as in OpenTofu, the first error ends the command with
// exit status 1. The exit status is 0 at the end of the input or "exit".
func runConsole(m *Meta, args []string) int {
	fs := m.flagSet("console")
	var vars []varFlag
	fs.Var(varFlagValue{items: &vars}, "var", "Set a value for one of the input variables in the root module: `NAME=VALUE`. Use this option more than once to set more than one variable.")
	fs.Var(varFlagValue{items: &vars, file: true}, "var-file", "Load variable values from the file at `PATH`, in addition to terraform.tfvars and *.auto.tfvars. Use this option more than once to load more than one file.")
	m.addLegacyStateFlags(fs, legacyStateOnly)
	m.legacy.anyBackend = true
	planned := fs.Bool("plan", false, "Make a plan first, as \"rig plan\" does, and evaluate the expressions against the values it plans (unknown until apply where the plan cannot know them) rather than against the state.")
	var lock bool
	var lockTimeout time.Duration
	addLockFlags(fs, &lock, &lockTimeout)
	var stream streamFlags
	addJSONIntoFlag(fs, &stream.into)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The console command takes no positional arguments. To run it in another working directory, use the global -chdir option.")
	}
	if !m.startTypedStream(stream) {
		return 1
	}
	defer m.endStream()
	ctx := context.Background()
	// Standard input holds the expressions: no variable is asked for.
	m.Input = false
	var cfg *config.Module
	var options eval.Options
	var ds diag.Diagnostics
	if *planned {
		f := operationFlags{vars: vars, refresh: true, parallelism: 10, lock: lock, lockTimeout: lockTimeout}
		op, more := m.prepare(ctx, &f, "OperationTypePlan")
		defer op.close()
		ds = more
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		p, more := m.makePlan(ctx, op, &f)
		if ds = ds.Append(more); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		cfg = op.cfg
		options = eval.Options{Variables: p.Variables, Resources: newPlannedValues(ctx, cfg, p, op.providers), Providers: op.providers}
	} else {
		var more diag.Diagnostics
		var set *provider.Set
		cfg, set, options, more = m.consoleFromState(ctx, vars)
		if set != nil {
			defer set.Close()
		}
		if ds = more; ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
	}
	wd, _ := m.workingDir()
	options.Config, options.Workspace, options.Cwd = cfg, m.workspace(), wd
	ev, more := eval.New(ctx, options)
	ds = ds.Append(more)
	m.showDiagnostics(ds)
	scope := ev.Scope(addrs.RootModule, lang.InstanceData{})
	interactive := isTerminal(m.In)
	in := bufio.NewScanner(m.In)
	in.Buffer(nil, 1<<20)
	var stmt consoleStatement
	for in.Scan() {
		line, complete := stmt.add(strings.TrimSpace(in.Text()))
		if !complete || line == "" {
			continue
		}
		if line == "exit" {
			break
		}
		out, ds := evalConsoleLine(cfg, scope, line)
		m.sources = map[string][]byte{consoleFile: []byte(line)}
		m.showDiagnostics(ds)
		if ds.HasErrors() && !interactive {
			return 1
		}
		if !ds.HasErrors() {
			fmt.Fprintln(m.Out, out)
			if m.stream != nil {
				m.stream.view.Info(out)
			}
		}
	}
	return 0
}

// consoleStatement gathers the lines of one console expression: it goes
// on while brackets, braces or parentheses are open, or while a line ends
// with a backslash (not an escaped one).
type consoleStatement struct {
	lines []string
	open  int
}

// add adds a line; it returns the expression once complete ("" for blank
// input), and false while more lines are expected.
func (s *consoleStatement) add(line string) (string, bool) {
	more := strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`)
	line = strings.TrimSuffix(line, `\`)
	if line != "" {
		s.lines = append(s.lines, line)
		toks, _ := hclsyntax.LexConfig([]byte(line), consoleFile, hcl.InitialPos)
		for _, t := range toks {
			switch t.Type {
			case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen:
				s.open++
			case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen:
				s.open--
			}
		}
	}
	if more || s.open > 0 {
		return "", false
	}
	stmt := strings.Join(s.lines, "\n")
	s.lines, s.open = nil, 0
	return stmt, true
}

// isTerminal reports whether r is a terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// consoleFromState loads what the console evaluates against without a
// plan: the configuration, the state's objects and the variables given.
// The provider set decodes the objects; the caller closes it.
func (m *Meta) consoleFromState(ctx context.Context, vars []varFlag) (*config.Module, *provider.Set, eval.Options, diag.Diagnostics) {
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		return nil, nil, eval.Options{}, ds
	}
	s, more := m.currentState()
	if ds = ds.Append(more); ds.HasErrors() {
		return nil, nil, eval.Options{}, ds
	}
	given, more := m.collectVariables(cfg, vars)
	ds = ds.Append(more)
	set := provider.NewSet(m.providerFactories())
	variables := map[string]cty.Value{}
	for _, name := range sortedMapKeys(cfg.Variables) {
		v := cfg.Variables[name]
		val, more := eval.PrepareVariable(v, given[name].Value, v.DeclRange, "the root module")
		if v.Required() && given[name].Value == cty.NilVal {
			more = nil // an unset required variable is unknown
		}
		ds = ds.Append(more)
		variables[name] = val
	}
	return cfg, set, eval.Options{Variables: variables, Resources: newStateValues(ctx, cfg, s, set), Providers: set}, ds
}

// evalConsoleLine evaluates one expression and formats its value. A call
// of type() shows the type of its argument, as only the console can.
func evalConsoleLine(cfg *config.Module, scope *lang.Scope, line string) (string, diag.Diagnostics) {
	expr, hds := hclsyntax.ParseExpression([]byte(line), consoleFile, hcl.InitialPos)
	if hds.HasErrors() {
		return "", diag.FromHCL(hds)
	}
	var ds diag.Diagnostics
	refs, more := lang.ReferencesInExpr(expr)
	ds = ds.Append(more)
	for _, ref := range refs {
		if ref.Kind == lang.ResourceRef && !slices.ContainsFunc(cfg.Resources(), func(r *config.Resource) bool { return r.Addr == ref.Resource }) {
			kind := "managed resource"
			if ref.Resource.Mode == addrs.Data {
				kind = "data resource"
			}
			ds = ds.Append(diag.At(ref.Range, "Reference to undeclared resource",
				fmt.Sprintf("A %s %q %q has not been declared in the root module.", kind, ref.Resource.Type, ref.Resource.Name)))
		}
	}
	if ds.HasErrors() {
		return "", ds
	}
	if call, ok := expr.(*hclsyntax.FunctionCallExpr); ok && call.Name == "type" && len(call.Args) == 1 {
		v, more := scope.EvalExpr(call.Args[0], cty.DynamicPseudoType)
		if ds = ds.Append(more); ds.HasErrors() {
			return "", ds
		}
		return formatType(v.Type(), 0), ds
	}
	v, more := scope.EvalExpr(expr, cty.DynamicPseudoType)
	if ds = ds.Append(more); ds.HasErrors() {
		return "", ds
	}
	return ui.FormatValue(v, 0), ds
}

// formatType writes a type in type constraint syntax as the console's
// type() shows it: structural types and collections of them over several
// lines, indented by four spaces.
func formatType(ty cty.Type, indent int) string {
	pad := strings.Repeat(" ", indent+4)
	end := strings.Repeat(" ", indent)
	switch {
	case ty == cty.DynamicPseudoType:
		return "dynamic"
	case ty.IsPrimitiveType():
		return ty.FriendlyName()
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType():
		kind := "list"
		if ty.IsSetType() {
			kind = "set"
		} else if ty.IsMapType() {
			kind = "map"
		}
		et := ty.ElementType()
		if et.IsObjectType() || et.IsTupleType() {
			return kind + "(\n" + pad + formatType(et, indent+4) + ",\n" + end + ")"
		}
		return kind + "(" + formatType(et, indent) + ")"
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		if len(attrs) == 0 {
			return "object({})"
		}
		var b strings.Builder
		b.WriteString("object({\n")
		for _, name := range sortedMapKeys(attrs) {
			fmt.Fprintf(&b, "%s%s: %s,\n", pad, name, formatType(attrs[name], indent+4))
		}
		return b.String() + end + "})"
	case ty.IsTupleType():
		elems := ty.TupleElementTypes()
		if len(elems) == 0 {
			return "tuple([])"
		}
		var b strings.Builder
		b.WriteString("tuple([\n")
		for _, et := range elems {
			fmt.Fprintf(&b, "%s%s,\n", pad, formatType(et, indent+4))
		}
		return b.String() + end + "])"
	}
	return ty.FriendlyName()
}

// stateValues implements eval.ResourceValues with the objects of a state,
// decoded with their providers' schemas (or, for a provider that cannot
// start, with the types their JSON implies). A resource declared but not
// in the state has no instances.
type stateValues struct {
	whole map[addrs.AbsResource]cty.Value
}

func newStateValues(ctx context.Context, cfg *config.Module, s *state.State, set *provider.Set) *stateValues {
	return wholeValues(cfg, stateInstanceValues(ctx, s, set))
}

// newPlannedValues is newStateValues for what a plan plans: each object's
// planned value (unknown in part or whole where the plan cannot know it),
// the prior value of an object left as it is, and no object for one the
// plan deletes or forgets.
func newPlannedValues(ctx context.Context, cfg *config.Module, p *plan.Plan, set *provider.Set) *stateValues {
	vals := stateInstanceValues(ctx, p.PriorState, set)
	for _, c := range p.Changes {
		if c.Deposed != addrs.NotDeposed {
			continue
		}
		res := c.Addr.ContainingResource()
		switch c.Action {
		case plan.Delete, plan.Forget:
			delete(vals[res], c.Addr.Resource.Key)
		default:
			if c.After == cty.NilVal {
				continue
			}
			if vals[res] == nil {
				vals[res] = map[addrs.InstanceKey]cty.Value{}
			}
			vals[res][c.Addr.Resource.Key] = c.After
		}
	}
	return wholeValues(cfg, vals)
}

// stateInstanceValues decodes the current object of every instance of s,
// by resource then instance key.
func stateInstanceValues(ctx context.Context, s *state.State, set *provider.Set) map[addrs.AbsResource]map[addrs.InstanceKey]cty.Value {
	out := map[addrs.AbsResource]map[addrs.InstanceKey]cty.Value{}
	if s == nil {
		return out
	}
	for addr, rs := range s.Resources {
		var blk *provider.Block
		if sch, ds := set.Schemas(ctx, rs.ProviderConfig.Provider); !ds.HasErrors() {
			byType := sch.ResourceTypes
			if addr.Resource.Mode == addrs.Data {
				byType = sch.DataSources
			}
			if rsch, ok := byType[addr.Resource.Type]; ok && rsch.Block != nil {
				blk = rsch.Block
			}
		}
		vals := map[addrs.InstanceKey]cty.Value{}
		for k, inst := range rs.Instances {
			if inst.Current == nil {
				continue
			}
			// Sensitive where the state records it and the schema says so.
			v, err := recordedValue(rs, inst.Current, blk)
			if err != nil {
				continue
			}
			vals[k] = v
		}
		out[addr] = vals
	}
	return out
}

// wholeValues makes each resource's value from its instances' values: an
// object for a single instance, a tuple or an object keyed by for_each
// key, as its configuration's count or for_each says.
func wholeValues(cfg *config.Module, instances map[addrs.AbsResource]map[addrs.InstanceKey]cty.Value) *stateValues {
	modes := map[addrs.ConfigResource]eval.ExpansionMode{}
	for _, mod := range cfg.AllModules() {
		for _, r := range mod.Resources() {
			modes[addrs.ConfigResource{Module: mod.Path, Resource: r.Addr}] = eval.ModeOf(r.Count, r.ForEach, r.Enabled)
		}
	}
	sv := &stateValues{whole: map[addrs.AbsResource]cty.Value{}}
	for addr, vals := range instances {
		exp := eval.Expansion{Mode: modes[addr.InConfig()]}
		for k := range vals {
			exp.Keys = append(exp.Keys, k)
		}
		slices.SortFunc(exp.Keys, addrs.InstanceKey.Compare)
		sv.whole[addr] = exp.WholeValue(vals)
	}
	return sv
}

// recordedValue decodes a recorded object as expressions see it: with its
// schema's type and marks (plan.ObjectValue), or without a schema by the
// shape of its JSON, sensitive where the state records it.
func recordedValue(rs *state.Resource, obj *state.Object, blk *provider.Block) (cty.Value, error) {
	if blk != nil {
		return plan.ObjectValue(rs, obj, blk)
	}
	ty, err := ctyjson.ImpliedType(obj.AttrsJSON)
	if err != nil {
		return cty.NilVal, err
	}
	v, err := obj.Decode(ty)
	if err != nil {
		return cty.NilVal, err
	}
	return marks.MarkPaths(v, plan.RecordedPaths(obj, rs.ProviderConfig.Provider, rs.Addr.Resource.Type)), nil
}

// ResourceValue implements eval.ResourceValues.
func (sv *stateValues) ResourceValue(addr addrs.AbsResource) cty.Value {
	if v, ok := sv.whole[addr]; ok {
		return v
	}
	return cty.DynamicVal
}
