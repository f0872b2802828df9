package planfile

import (
	"bytes"
	"encoding/json"
	"github.com/hashicorp/hcl/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
)

// planOpts compares plans the way a saved plan must reproduce them: values
// exactly (types, unknowns and their refinements), paths step by step,
// times as instants, JSON as data, and no distinction between nil and
// empty maps and slices.
var planOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool {
		if a == cty.NilVal || b == cty.NilVal {
			return a == b
		}
		return a.RawEquals(b)
	}),
	cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) }),
	cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) }),
	cmp.FilterPath(func(p cmp.Path) bool { return p.Last().Type() == reflect.TypeFor[json.RawMessage]() }, cmp.FilterValues(func(a, b json.RawMessage) bool {
		return len(a) > 0 && len(b) > 0
	}, cmp.Comparer(func(a, b json.RawMessage) bool {
		var ca, cb bytes.Buffer
		if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
			return bytes.Equal(a, b)
		}
		return bytes.Equal(ca.Bytes(), cb.Bytes())
	}))),
	cmpopts.EquateEmpty(),
	// A prior value kept encoded compares as its decoded value.
	cmp.Transformer("WithBeforeDecoded", (*plan.ResourceInstanceChange).WithBeforeDecoded),
	cmpopts.IgnoreUnexported(plan.ResourceInstanceChange{}),
	// Addresses are comparable values.
	cmpopts.EquateComparable(addrs.AbsResourceInstance{}, addrs.AbsResource{}, addrs.AbsProviderConfig{}, addrs.InstanceKey{}),
}

func mustInstance(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, err := addrs.ParseAbsResourceInstanceStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustResource(t *testing.T, s string) addrs.AbsResource {
	t.Helper()
	a, err := addrs.ParseAbsResourceStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func newObject(t *testing.T, v cty.Value) *state.Object {
	t.Helper()
	obj, err := state.NewObject(v, v.Type())
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

var (
	testProvider = addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: addrs.NewDefaultProvider("test")}
	tfProvider   = addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: addrs.NewBuiltInProvider("terraform")}
	thingType    = cty.Object(map[string]cty.Type{"id": cty.String, "key": cty.String, "ref": cty.List(cty.String), "tags": cty.Map(cty.String)})
)

func thing(id, key string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal(id), "key": cty.StringVal(key),
		"ref": cty.NullVal(cty.List(cty.String)), "tags": cty.MapValEmpty(cty.String),
	})
}

// richState is a state with current, tainted and deposed objects,
// dependencies, create_before_destroy, private data and outputs.
func richState(t *testing.T) *state.State {
	s := state.New()
	s.Lineage = "0c1b7d0e-1111-4222-8333-444455556666"
	s.Serial = 7
	s.TerraformVersion = "1.10.0"
	a := newObject(t, thing("id-1", "a"))
	a.CreateBeforeDestroy = true
	a.Private = []byte("private-a")
	s.SetObject(addrs.ObjectAddr{Instance: mustInstance(t, "test_thing.a")}, a, testProvider)
	old := newObject(t, thing("id-0", "a"))
	old.CreateBeforeDestroy = true
	s.SetObject(addrs.ObjectAddr{Instance: mustInstance(t, "test_thing.a"), Deposed: "0000abcd"}, old, testProvider)
	b := newObject(t, thing("id-2", "b"))
	b.Status = state.Tainted
	b.Dependencies = []addrs.AbsResource{mustResource(t, "test_thing.a")}
	s.SetObject(addrs.ObjectAddr{Instance: mustInstance(t, `test_thing.b["k"]`)}, b, testProvider)
	s.Outputs["out"] = state.OutputValue{Value: cty.ListVal([]cty.Value{cty.StringVal("x")}), Sensitive: true}
	return s
}

// richPlan is a plan with every kind of content a saved plan must keep.
func richPlan(t *testing.T) *plan.Plan {
	prev := richState(t)
	prior := prev.DeepCopy()
	prior.SetObject(addrs.ObjectAddr{Instance: mustInstance(t, "test_thing.a"), Deposed: "0000abcd"}, nil, testProvider)
	unknownID := cty.UnknownVal(cty.String).RefineNotNull()
	return &plan.Plan{
		Mode:         plan.NormalMode,
		PrevRunState: prev,
		PriorState:   prior,
		Timestamp:    time.Date(2025, 6, 1, 12, 0, 0, 123456789, time.UTC),
		Variables: map[string]cty.Value{
			"name":  cty.StringVal("n"),
			"count": cty.NumberIntVal(3),
			"tags":  cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b")}),
			"obj":   cty.ObjectVal(map[string]cty.Value{"on": cty.True, "n": cty.NumberFloatVal(1.5)}),
			"none":  cty.NullVal(cty.String),
			"tuple": cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.NumberIntVal(1)}),
		},
		Changes: []*plan.ResourceInstanceChange{
			{
				Addr: mustInstance(t, "test_thing.a"), ProviderConfig: testProvider,
				Action: plan.CreateThenDelete, Reason: plan.ReplaceBecauseCannotUpdate,
				Before: thing("id-1", "a"),
				After: cty.ObjectVal(map[string]cty.Value{
					"id": unknownID, "key": cty.StringVal("a2"),
					"ref":  cty.ListVal([]cty.Value{cty.StringVal("r"), cty.UnknownVal(cty.String)}),
					"tags": cty.UnknownVal(cty.Map(cty.String)),
				}),
				RequiredReplace: []cty.Path{
					cty.GetAttrPath("key"),
					cty.GetAttrPath("tags").Index(cty.StringVal("Name")),
					cty.GetAttrPath("ref").Index(cty.NumberIntVal(0)),
				},
				PriorPrivate: []byte("private-a"), PlannedPrivate: []byte{0, 1, 2},
				CreateBeforeDestroy: true,
				Dependencies:        []addrs.AbsResource{mustResource(t, "test_thing.base"), mustResource(t, "data.test_echo.d")},
				SchemaVersion:       2,
			},
			{
				Addr: mustInstance(t, "test_thing.a"), Deposed: "0000abcd", ProviderConfig: testProvider,
				Action: plan.Delete, Before: thing("id-0", "a"), After: cty.NullVal(thingType),
				CreateBeforeDestroy: true,
			},
			{
				Addr: mustInstance(t, `test_thing.b["k"]`), ProviderConfig: addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: testProvider.Provider, Alias: "each", Key: addrs.StringKey("by-k")},
				Action: plan.DeleteThenCreate, Reason: plan.ReplaceBecauseTainted,
				Before: thing("id-2", "b"), After: cty.UnknownVal(thingType),
				CreateBeforeDestroy: true, CBDInheritedFrom: mustResource(t, "test_thing.top"), CBDVia: mustResource(t, "test_thing.mid"),
			},
			{
				Addr: mustInstance(t, "test_thing.t"), ProviderConfig: testProvider,
				Action: plan.DeleteThenCreate, Reason: plan.ReplaceByTriggers,
				Before: thing("id-3", "t"), After: cty.UnknownVal(thingType),
				ConfigDigest: plan.ConfigDigest(cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal("t")})),
				Trigger: &plan.Trigger{Changed: mustInstance(t, "test_thing.a"), Path: cty.GetAttrPath("tags").Index(cty.StringVal("Name")),
					Range: hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 7, Column: 29, Byte: 100}, End: hcl.Pos{Line: 7, Column: 45, Byte: 116}}},
			},
			{
				Addr: mustInstance(t, "test_thing.gone[3]"), ProviderConfig: testProvider,
				Action: plan.Delete, Reason: plan.DeleteBecauseCountIndex,
				Before: thing("id-9", "gone"), After: cty.NullVal(thingType),
			},
			{
				Addr: mustInstance(t, "terraform_data.d"), ProviderConfig: tfProvider,
				Action: plan.Create, Before: cty.NullVal(cty.DynamicPseudoType),
				After: cty.ObjectVal(map[string]cty.Value{
					"id": unknownID, "input": cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(2)}),
					"output": cty.DynamicVal, "triggers_replace": cty.NullVal(cty.DynamicPseudoType),
				}),
			},
			{
				Addr: mustInstance(t, "data.test_echo.d"), ProviderConfig: testProvider,
				Action: plan.Read, Before: cty.NullVal(thingType), After: cty.UnknownVal(thingType),
				ReadCause: plan.ReadBecauseDependencyPending, ReadAfter: mustInstance(t, "test_thing.a"),
			},
			{
				Addr: mustInstance(t, "test_thing.same"), ProviderConfig: testProvider,
				Action: plan.NoOp, Before: thing("id-5", "same"), After: thing("id-5", "same"),
			},
		},
		Outputs: map[string]*plan.OutputChange{
			"created":   {Action: plan.Create, Before: cty.NullVal(cty.DynamicPseudoType), After: cty.UnknownVal(cty.String).RefineNotNull()},
			"updated":   {Action: plan.Update, Before: cty.StringVal("a"), After: cty.StringVal("b"), Sensitive: true},
			"deleted":   {Action: plan.Delete, Before: cty.NumberIntVal(1), After: cty.NullVal(cty.Number)},
			"unchanged": {Action: plan.NoOp, Before: cty.EmptyObjectVal, After: cty.EmptyObjectVal},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	destroy := richPlan(t)
	destroy.Mode = plan.DestroyMode
	refreshOnly := richPlan(t)
	refreshOnly.Mode = plan.RefreshOnlyMode
	empty := &plan.Plan{Timestamp: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	// A -refresh=changed plan keeps what it read back, why, and what it
	// planned as recorded.
	refreshChanged := richPlan(t)
	refreshChanged.Refresh, refreshChanged.RefreshMaxAge = plan.RefreshChanged, 90*time.Minute
	at := time.Date(2025, 1, 1, 10, 0, 0, 0, time.UTC)
	obj := func(s string, deposed addrs.DeposedKey) addrs.ObjectAddr {
		return addrs.ObjectAddr{Instance: mustInstance(t, s), Deposed: deposed}
	}
	refreshChanged.Refreshed = []plan.Refreshed{
		{Addr: obj("test_thing.a", ""), Cause: plan.RefreshTimeUnknown},
		{Addr: obj("test_thing.b", ""), Cause: plan.RefreshDependencyChanged, LastRefreshed: at, Dependency: addrs.AbsResource{Resource: addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: "a"}}},
		{Addr: obj("test_thing.c", "00000001"), Cause: plan.RefreshAlways, LastRefreshed: at},
	}
	refreshChanged.NotRefreshed = []plan.NotRefreshed{{Addr: obj("module.m.test_thing.d[\"k\"]", ""), LastRefreshed: at}}
	noRefresh := richPlan(t)
	noRefresh.Refresh = plan.RefreshNone

	tests := []struct {
		name string
		file *File
	}{
		{"everything", &File{
			Plan:         richPlan(t),
			Config:       map[string][]byte{"main.tf": []byte("resource \"test_thing\" \"a\" {}\n"), "vars.tf.json": []byte(`{"variable":{"x":{}}}`)},
			StateLineage: "0c1b7d0e-1111-4222-8333-444455556666", StateSerial: 7, Workspace: "staging",
		}},
		{"destroy", &File{Plan: destroy, Workspace: "default"}},
		{"refresh-only", &File{Plan: refreshOnly, Workspace: "default"}},
		{"empty plan and states", &File{Plan: empty, Workspace: "default"}},
		{"refresh=changed", &File{Plan: refreshChanged, Workspace: "default"}},
		{"refresh=false", &File{Plan: noRefresh, Workspace: "default"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := Marshal(tt.file)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			got, err := Unmarshal(data)
			if err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			want := *tt.file
			if want.Plan.PriorState == nil {
				// A plan without states is saved with empty ones.
				p := *want.Plan
				p.PriorState, p.PrevRunState = got.Plan.PriorState, got.Plan.PrevRunState
				want.Plan = &p
			}
			if diff := cmp.Diff(&want, got, planOpts); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
			// Encoding is deterministic.
			again, err := Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, again) {
				t.Errorf("re-encoding the decoded plan gives other bytes")
			}
		})
	}
}

func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tfplan")
	f := &File{Plan: richPlan(t), Workspace: "default", StateLineage: "l", StateSerial: 1}
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	if !IsPlanFile(path) {
		t.Errorf("IsPlanFile(%s) = false", path)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(f, got, planOpts); diff != "" {
		t.Errorf("Read(Write) (-want +got):\n%s", diff)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("Write left temporary files: %v", entries)
	}

	// Overwriting an existing plan replaces it.
	f.Workspace = "other"
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(path); err != nil || got.Workspace != "other" {
		t.Errorf("after overwrite: workspace %q, err %v", got.Workspace, err)
	}
}

func TestNotAPlan(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	valid, err := Marshal(&File{Plan: richPlan(t)})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, content, wantErr string
		isPlan                 bool
	}{
		{"configuration", "resource \"x\" \"y\" {}\n", "not a rig plan file", false},
		{"state file", `{"version": 4, "serial": 1, "lineage": "x", "resources": []}`, "not a rig plan file", false},
		{"future format", strings.Replace(string(valid), `"version":1`, `"version":99`, 1), "plan file format version 99 is not supported", true},
		{"unknown action", strings.Replace(string(valid), `"action":"no-op"`, `"action":"explode"`, 1), `unknown action "explode"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write(strings.ReplaceAll(tt.name, " ", "_"), tt.content)
			if got := IsPlanFile(p); got != tt.isPlan {
				t.Errorf("IsPlanFile = %v, want %v", got, tt.isPlan)
			}
			_, err := Read(p)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Read error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
	if IsPlanFile(filepath.Join(dir, "missing")) {
		t.Errorf("IsPlanFile of a missing file = true")
	}
}
