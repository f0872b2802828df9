package planner_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/txtartest"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// update is the -update flag, declared by package golden: it rewrites
// the want sections of testdata/plan/*.txtar.
var update = golden.Update

// fixedNow is the plan timestamp of every test plan.
var fixedNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// echoType is a data source the test provider offers besides providertest's
// resource types: its output is its input; reading input "fail" fails.
const echoType = "test_echo"

// legacyType is a data source whose schema declares deprecated attributes:
// old (with a deprecation message) and older (without one).
const legacyType = "test_legacy"

// echoProvider is providertest's provider with two data sources, test_echo
// and test_legacy; the reads of test_echo are recorded in reads when it is
// not nil.
type echoProvider struct {
	*providertest.Provider
	reads *providertest.InFlight
}

func echoSchema() provider.Schema {
	return provider.Schema{Block: &provider.Block{Attributes: map[string]*provider.Attribute{
		"input":  {Type: cty.String, Optional: true},
		"output": {Type: cty.String, Computed: true},
	}}}
}

func (p echoProvider) GetProviderSchema(ctx context.Context) (*provider.Schemas, diag.Diagnostics) {
	s, ds := p.Provider.GetProviderSchema(ctx)
	s.DataSources[echoType] = echoSchema()
	s.DataSources[legacyType] = provider.Schema{Block: &provider.Block{Attributes: map[string]*provider.Attribute{
		"current": {Type: cty.String, Computed: true},
		"old":     {Type: cty.String, Computed: true, Deprecated: true, DeprecationMessage: "Use current instead."},
		"older":   {Type: cty.String, Computed: true, Deprecated: true},
	}}}
	return s, ds
}

func (p echoProvider) ValidateDataResourceConfig(ctx context.Context, typeName string, cfg cty.Value) diag.Diagnostics {
	if typeName == echoType || typeName == legacyType {
		return nil
	}
	return p.Provider.ValidateDataResourceConfig(ctx, typeName, cfg)
}

func (p echoProvider) ReadDataSource(ctx context.Context, req provider.ReadDataRequest) provider.ReadDataResponse {
	if req.TypeName == legacyType {
		v := cty.StringVal("v")
		return provider.ReadDataResponse{State: cty.ObjectVal(map[string]cty.Value{"current": v, "old": v, "older": v})}
	}
	if req.TypeName != echoType {
		return p.Provider.ReadDataSource(ctx, req)
	}
	if p.reads != nil {
		if err := p.reads.Enter(ctx); err != nil {
			return provider.ReadDataResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Echo interrupted", "%s", err)}}
		}
		defer p.reads.Leave()
	}
	in := req.Config.GetAttr("input")
	if in.RawEquals(cty.StringVal("fail")) {
		return provider.ReadDataResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Echo failed", "The input was %q.", "fail")}}
	}
	return provider.ReadDataResponse{State: cty.ObjectVal(map[string]cty.Value{"input": in, "output": in})}
}

// providerSet returns a provider set with the test provider (backed by
// live) and the built-in terraform provider.
func providerSet(live *providertest.Provider) *provider.Set {
	return providerSetRecording(live, nil)
}

// providerSetRecording is providerSet with the reads of test_echo recorded
// in echoReads (when not nil).
func providerSetRecording(live *providertest.Provider, echoReads *providertest.InFlight) *provider.Set {
	var n atomic.Int64
	return provider.NewSet(provider.Factories{
		providertest.Address(): func() (provider.Interface, error) { return echoProvider{live, echoReads}, nil },
		addrs.NewBuiltInProvider("terraform"): func() (provider.Interface, error) {
			return &builtin.Terraform{NewID: func() string { return fmt.Sprintf("tf-%d", n.Add(1)) }}, nil
		},
	})
}

// fixture is one planning scenario: configuration, prior state, options and
// the fake remote system.
type fixture struct {
	cfg   *config.Module
	state *state.State
	opts  planner.Options
	live  *providertest.Provider
	// showPrior renders the refreshed state after the changes.
	showPrior bool
}

// loadFixture reads a txtar scenario: *.tf files, an optional state.json
// (version-4 state; every test_thing/test_other object in it is made live
// in the fake provider), an optional "options" file and a "want" file.
//
// Options, one a line: destroy | skip-refresh | show-prior-state |
// replace ADDR | target ADDR | exclude ADDR | refresh-only | var NAME = EXPR (from -var) | tfvar NAME = EXPR (from a
// .tfvars file) | remove-live ID (deleted outside rig) | drift ID ATTR = EXPR
// (changed outside rig).
func loadFixture(t *testing.T, ar *txtar.Archive) *fixture {
	t.Helper()
	fx := &fixture{live: providertest.New(), state: state.New(),
		opts: planner.Options{Now: func() time.Time { return fixedNow }, Variables: map[string]planner.InputValue{}}}
	files := fstest.MapFS{}
	var options []byte
	for _, f := range ar.Files {
		switch {
		case strings.HasSuffix(f.Name, ".tf"):
			files[f.Name] = &fstest.MapFile{Data: f.Data, Mode: 0o644}
		case f.Name == "state.json":
			st, err := statefile.Parse(f.Data)
			if err != nil {
				t.Fatalf("state.json: %v", err)
			}
			fx.state = st
		case f.Name == "options":
			options = f.Data
		case f.Name == "want":
		default:
			t.Fatalf("unknown scenario file %q", f.Name)
		}
	}
	// Module directories are paths in the archive: -- modules/net/main.tf --.
	cfg, ds := config.LoadTreeFS(files, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatalf("configuration does not load: %v", ds.Err())
	}
	fx.cfg = cfg
	makeLive(t, fx.live, fx.state)

	sc := bufio.NewScanner(strings.NewReader(string(options)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		verb, arg, _ := strings.Cut(line, " ")
		switch verb {
		case "":
		case "destroy":
			fx.opts.Mode = plan.DestroyMode
		case "skip-refresh":
			fx.opts.SkipRefresh = true
		case "show-prior-state":
			fx.showPrior = true
		case "replace":
			a, err := addrs.ParseAbsResourceInstanceStr(arg)
			if err != nil {
				t.Fatal(err)
			}
			fx.opts.Replace = append(fx.opts.Replace, a)
		case "target", "exclude":
			a, err := addrs.ParseTargetStr(arg)
			if err != nil {
				t.Fatal(err)
			}
			if verb == "target" {
				fx.opts.Targets = append(fx.opts.Targets, a)
			} else {
				fx.opts.Excludes = append(fx.opts.Excludes, a)
			}
		case "refresh-only":
			fx.opts.Mode = plan.RefreshOnlyMode
		case "var", "tfvar":
			name, val := parseAssign(t, arg)
			src := "-var"
			if verb == "tfvar" {
				src = "a .tfvars file"
			}
			fx.opts.Variables[name] = planner.InputValue{Value: val, SourceType: src}
		case "remove-live":
			if !fx.live.RemoveLive(arg) {
				t.Fatalf("remove-live %s: no such live object", arg)
			}
		case "drift":
			id, assign, _ := strings.Cut(arg, " ")
			attr, val := parseAssign(t, assign)
			drift(t, fx.live, id, attr, val)
		default:
			t.Fatalf("unknown option %q", line)
		}
	}
	return fx
}

func parseAssign(t *testing.T, s string) (string, cty.Value) {
	t.Helper()
	name, src, ok := strings.Cut(s, "=")
	if !ok {
		t.Fatalf("want NAME = EXPR, got %q", s)
	}
	expr, ds := hclsyntax.ParseExpression([]byte(strings.TrimSpace(src)), "option", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatalf("%q: %s", s, ds.Error())
	}
	v, ds := expr.Value(nil)
	if ds.HasErrors() {
		t.Fatalf("%q: %s", s, ds.Error())
	}
	return strings.TrimSpace(name), v
}

var thingType = providertest.ThingSchema().Block.ImpliedType()

// makeLive makes every test_thing/test_other/test_secret object of st exist in live.
func makeLive(t *testing.T, live *providertest.Provider, st *state.State) {
	t.Helper()
	for _, oa := range st.Objects() {
		typ := oa.Instance.Resource.Resource.Type
		if typ != providertest.ThingType && typ != providertest.OtherType && typ != providertest.SecretType || oa.Instance.Resource.Resource.Mode != addrs.Managed {
			continue
		}
		ty := thingType
		if typ == providertest.SecretType {
			ty = providertest.SecretSchema().Block.ImpliedType()
		}
		v, err := st.Object(oa).Decode(ty)
		if err != nil {
			t.Fatalf("%s: %v", oa, err)
		}
		if err := live.AddLive(typ, v); err != nil {
			t.Fatalf("%s: %v", oa, err)
		}
	}
}

// drift changes one attribute of a live object, as if changed outside rig.
func drift(t *testing.T, live *providertest.Provider, id, attr string, val cty.Value) {
	t.Helper()
	for _, o := range live.Live() {
		if o.ID != id {
			continue
		}
		m := o.State.AsValueMap()
		m[attr] = val
		live.RemoveLive(id)
		if err := live.AddLive(o.Type, cty.ObjectVal(m)); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("drift %s: no such live object", id)
}

// makePlan plans fx with a fresh provider set.
func makePlan(t *testing.T, fx *fixture) (*plan.Plan, diag.Diagnostics) {
	t.Helper()
	set := providerSet(fx.live)
	defer set.Close()
	return planner.Make(context.Background(), fx.cfg, fx.state, set, fx.opts)
}

// TestPlanScenarios plans each testdata/plan/*.txtar and compares the
// rendered plan with its "want" file (go test -update rewrites it).
func TestPlanScenarios(t *testing.T) {
	txtartest.Run(t, "testdata/plan/*.txtar", func(t *testing.T, path string, ar *txtar.Archive) {
		t.Parallel()
		fx := loadFixture(t, ar)
		p, ds := makePlan(t, fx)
		txtartest.Check(t, path, ar, "want", renderPlan(p, ds, fx.showPrior), *update)
	})
}

// renderPlan renders what a user checks in a plan: each object's action
// and reason (and in a refresh-only plan what changed outside rig), create_before_destroy, dependencies, replace paths and the
// attribute changes; the output changes; the diagnostics (sorted by
// position, then summary).
func renderPlan(p *plan.Plan, ds diag.Diagnostics, showPrior bool) string {
	var b strings.Builder
	if p.Errored {
		b.WriteString("(errored)\n")
	}
	for _, c := range p.Changes {
		b.WriteString(renderChange(c))
	}
	if p.Mode == plan.RefreshOnlyMode {
		for _, c := range p.Drift {
			b.WriteString("drift " + renderChange(c))
		}
	}
	for _, name := range sortedNames(p.Outputs) {
		o := p.Outputs[name]
		fmt.Fprintf(&b, "output.%s: %s", name, o.Action)
		switch o.Action {
		case plan.Create:
			fmt.Fprintf(&b, " %s", formatValue(o.After))
		case plan.Delete:
			fmt.Fprintf(&b, " %s", formatValue(o.Before))
		case plan.NoOp:
			fmt.Fprintf(&b, " %s", formatValue(o.After))
		default:
			fmt.Fprintf(&b, " %s -> %s", formatValue(o.Before), formatValue(o.After))
		}
		if o.Sensitive {
			b.WriteString(" (sensitive)")
		}
		b.WriteString("\n")
	}
	b.WriteString(renderDiags(ds))
	if showPrior {
		b.WriteString("prior state:\n")
		b.WriteString(renderState(p.PriorState))
	}
	return b.String()
}

func renderChange(c *plan.ResourceInstanceChange) string {
	var b strings.Builder
	b.WriteString(c.Addr.String())
	if c.Deposed != addrs.NotDeposed {
		fmt.Fprintf(&b, " (deposed %s)", c.Deposed)
	}
	fmt.Fprintf(&b, ": %s", c.Action)
	if r := c.Reason.JSON(); r != "" {
		fmt.Fprintf(&b, " (%s)", r)
	}
	if c.CreateBeforeDestroy {
		switch {
		case c.CBDVia != (addrs.AbsResource{}) && c.CBDVia != c.CBDInheritedFrom:
			fmt.Fprintf(&b, " [cbd from %s via %s]", c.CBDInheritedFrom, c.CBDVia)
		case c.CBDInheritedFrom != (addrs.AbsResource{}):
			fmt.Fprintf(&b, " [cbd from %s]", c.CBDInheritedFrom)
		default:
			b.WriteString(" [cbd]")
		}
	}
	if c.SkipDestroy {
		b.WriteString(" [destroy = false]")
	}
	b.WriteString("\n")
	if c.Moved() {
		fmt.Fprintf(&b, "  moved from: %s\n", c.PrevRunAddr)
	}
	if t := c.Trigger; t != nil {
		fmt.Fprintf(&b, "  triggered by: %s at %s:%d\n", t.Ref(), t.Range.Filename, t.Range.Start.Line)
	}
	if c.ReadCause != plan.ReadNow {
		fmt.Fprintf(&b, "  read at apply: %s", c.ReadCause)
		if c.ReadAfter != (addrs.AbsResourceInstance{}) {
			fmt.Fprintf(&b, " (%s)", c.ReadAfter)
		}
		b.WriteString("\n")
	}
	if pc := c.ProviderConfig; !pc.Module.IsRoot() || pc.Alias != "" {
		fmt.Fprintf(&b, "  provider: %s\n", pc)
	}
	if len(c.Dependencies) > 0 {
		fmt.Fprintf(&b, "  deps: %s\n", joinStrings(c.Dependencies))
	}
	if len(c.RequiredReplace) > 0 {
		paths := make([]string, len(c.RequiredReplace))
		for i, p := range c.RequiredReplace {
			paths[i] = diag.FormatPath(p)
		}
		fmt.Fprintf(&b, "  replace paths: %s\n", strings.Join(paths, ", "))
	}
	switch c.Action {
	case plan.NoOp:
	case plan.Delete, plan.Forget:
		if id := attr(c.BeforeValue(), "id"); id != cty.NilVal {
			fmt.Fprintf(&b, "  id: %s\n", formatValue(id))
		}
	case plan.Create, plan.Read:
		for _, name := range attrNames(c.After) {
			if v := c.After.GetAttr(name); !v.IsNull() {
				fmt.Fprintf(&b, "  %s: %s\n", name, formatValue(v))
			}
		}
	default:
		for _, name := range attrNames(c.After) {
			before, after := attr(c.Before, name), c.After.GetAttr(name)
			if before == cty.NilVal || !before.RawEquals(after) {
				fmt.Fprintf(&b, "  %s: %s -> %s\n", name, formatValue(before), formatValue(after))
			}
		}
	}
	return b.String()
}

func renderDiags(ds diag.Diagnostics) string {
	lines := make([]string, 0, len(ds))
	for _, d := range ds {
		var b strings.Builder
		b.WriteString(d.Severity.String())
		if d.Subject != nil {
			fmt.Fprintf(&b, " %s:%d", d.Subject.Filename, d.Subject.Start.Line)
		}
		fmt.Fprintf(&b, ": %s", d.Summary)
		if d.Address != nil {
			fmt.Fprintf(&b, " [%s]", d.Address)
		}
		b.WriteString("\n")
		for _, l := range strings.Split(d.Detail, "\n") {
			fmt.Fprintf(&b, "  | %s\n", l)
		}
		lines = append(lines, b.String())
	}
	slices.Sort(lines)
	return strings.Join(lines, "")
}

// renderState renders each object of s: its id, status, dependencies and
// create_before_destroy.
func renderState(s *state.State) string {
	var b strings.Builder
	for _, oa := range s.Objects() {
		obj := s.Object(oa)
		fmt.Fprintf(&b, "  %s:", oa)
		if id := jsonID(obj); id != "" {
			fmt.Fprintf(&b, " id=%s", id)
		}
		if obj.Status == state.Tainted {
			b.WriteString(" tainted")
		}
		if obj.CreateBeforeDestroy {
			b.WriteString(" cbd")
		}
		if obj.SkipDestroy {
			b.WriteString(" skip_destroy")
		}
		if len(obj.Dependencies) > 0 {
			fmt.Fprintf(&b, " deps=[%s]", joinStrings(obj.Dependencies))
		}
		b.WriteString("\n")
	}
	for _, name := range sortedNames(s.Outputs) {
		fmt.Fprintf(&b, "  output.%s = %s\n", name, formatValue(s.Outputs[name].Value))
	}
	return b.String()
}

// jsonID returns the id attribute of a recorded object, "" when none.
func jsonID(obj *state.Object) string {
	var attrs struct {
		ID *string `json:"id"`
	}
	if err := json.Unmarshal(obj.AttrsJSON, &attrs); err != nil || attrs.ID == nil {
		return ""
	}
	return strconv.Quote(*attrs.ID)
}

func joinStrings[T fmt.Stringer](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = x.String()
	}
	return strings.Join(s, ", ")
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// attrNames returns the attribute names of an object value, sorted.
func attrNames(v cty.Value) []string {
	if v == cty.NilVal || !v.Type().IsObjectType() {
		return nil
	}
	return sortedNames(v.Type().AttributeTypes())
}

// attr returns attribute name of v, or NilVal when v is null, unknown or has no such attribute.
func attr(v cty.Value, name string) cty.Value {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute(name) {
		return cty.NilVal
	}
	return v.GetAttr(name)
}

// formatValue renders a value the way a plan shows it.
func formatValue(v cty.Value) string {
	if v != cty.NilVal && v.IsMarked() {
		uv, _ := v.Unmark()
		return "sensitive(" + formatValue(uv) + ")"
	}
	switch {
	case v == cty.NilVal:
		return "(none)"
	case !v.IsKnown():
		return "(known after apply)"
	case v.IsNull():
		return "null"
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return strconv.Quote(v.AsString())
	case ty == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return strconv.FormatBool(v.True())
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		var parts []string
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			parts = append(parts, formatValue(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case ty.IsMapType() || ty.IsObjectType():
		var parts []string
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			parts = append(parts, k.AsString()+" = "+formatValue(e))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return v.GoString()
}
