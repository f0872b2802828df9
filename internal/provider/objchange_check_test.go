package provider

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// checkSchema is the schema the check tests use: attributes of every kind
// and a nested block of every nesting mode.
var checkSchema = &Block{
	Attributes: map[string]*Attribute{
		"id":     {Type: cty.String, Computed: true},
		"input":  {Type: cty.String, Optional: true},
		"tags":   {Type: cty.Map(cty.String), Optional: true, Computed: true},
		"secret": {Type: cty.String, Optional: true, Sensitive: true},
		"names":  {Type: cty.Set(cty.String), Optional: true},
		"disk": {Optional: true, NestedType: &NestedObject{Nesting: NestingList, Attributes: map[string]*Attribute{
			"size": {Type: cty.Number, Required: true},
			"kind": {Type: cty.String, Optional: true, Computed: true},
		}}},
	},
	BlockTypes: map[string]*NestedBlock{
		"rule": {Nesting: NestingList, Block: Block{Attributes: map[string]*Attribute{
			"port": {Type: cty.Number, Required: true},
			"arn":  {Type: cty.String, Computed: true},
		}}},
		"timeouts": {Nesting: NestingSingle, Block: Block{Attributes: map[string]*Attribute{
			"create": {Type: cty.String, Optional: true},
		}}},
		"ingress": {Nesting: NestingSet, Block: Block{Attributes: map[string]*Attribute{
			"from": {Type: cty.Number, Required: true},
			"id":   {Type: cty.String, Computed: true},
		}}},
		"env": {Nesting: NestingMap, Block: Block{Attributes: map[string]*Attribute{
			"value": {Type: cty.String, Optional: true},
		}}},
	},
}

var (
	nullStr   = cty.NullVal(cty.String)
	unkStr    = cty.UnknownVal(cty.String)
	ruleTy    = checkSchema.BlockTypes["rule"].Block.ImpliedType()
	ingressTy = checkSchema.BlockTypes["ingress"].Block.ImpliedType()
	envTy     = checkSchema.BlockTypes["env"].Block.ImpliedType()
	diskTy    = cty.Object(map[string]cty.Type{"size": cty.Number, "kind": cty.String})
)

// object returns a value of checkSchema with everything null or empty except
// the attributes given.
func object(set map[string]cty.Value) cty.Value {
	attrs := map[string]cty.Value{
		"id":       nullStr,
		"input":    nullStr,
		"tags":     cty.NullVal(cty.Map(cty.String)),
		"secret":   nullStr,
		"names":    cty.NullVal(cty.Set(cty.String)),
		"disk":     cty.NullVal(cty.List(diskTy)),
		"rule":     cty.ListValEmpty(ruleTy),
		"timeouts": cty.NullVal(checkSchema.BlockTypes["timeouts"].Block.ImpliedType()),
		"ingress":  cty.SetValEmpty(ingressTy),
		"env":      cty.MapValEmpty(envTy),
	}
	for k, v := range set {
		attrs[k] = v
	}
	return cty.ObjectVal(attrs)
}

func rule(port int64, arn cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "arn": arn})
}

func ingress(from int64, id cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"from": cty.NumberIntVal(from), "id": id})
}

func disk(size int64, kind cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(size), "kind": kind})
}

func env(v string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"value": cty.StringVal(v)})
}

func errorStrings(errs []error) []string {
	var out []string
	for _, err := range errs {
		out = append(out, err.Error())
	}
	return out
}

func TestAssertPlanValid(t *testing.T) {
	null := cty.NullVal(checkSchema.ImpliedType())
	tests := []struct {
		name                   string
		prior, config, planned cty.Value
		want                   []string
	}{
		{
			name:    "create with computed attributes unknown",
			prior:   null,
			config:  object(map[string]cty.Value{"input": cty.StringVal("a"), "rule": cty.ListVal([]cty.Value{rule(80, nullStr)})}),
			planned: object(map[string]cty.Value{"id": unkStr, "input": cty.StringVal("a"), "tags": cty.UnknownVal(cty.Map(cty.String)), "rule": cty.ListVal([]cty.Value{rule(80, unkStr)})}),
		},
		{
			name:    "computed attributes given values",
			prior:   null,
			config:  object(nil),
			planned: object(map[string]cty.Value{"id": cty.StringVal("x"), "tags": cty.MapValEmpty(cty.String)}),
		},
		{
			name:    "update keeps computed prior values",
			prior:   object(map[string]cty.Value{"id": cty.StringVal("x"), "input": cty.StringVal("a")}),
			config:  object(map[string]cty.Value{"input": cty.StringVal("b")}),
			planned: object(map[string]cty.Value{"id": cty.StringVal("x"), "input": cty.StringVal("b")}),
		},
		{
			name:    "prior value kept as equivalent to the configured one",
			prior:   object(map[string]cty.Value{"input": cty.StringVal("A")}),
			config:  object(map[string]cty.Value{"input": cty.StringVal("a")}),
			planned: object(map[string]cty.Value{"input": cty.StringVal("A")}),
		},
		{
			name:    "configured value changed",
			prior:   null,
			config:  object(map[string]cty.Value{"input": cty.StringVal("a")}),
			planned: object(map[string]cty.Value{"input": cty.StringVal("b")}),
			want:    []string{`.input: planned value cty.StringVal("b") does not match config value cty.StringVal("a")`},
		},
		{
			name:    "configured value changed on update",
			prior:   object(map[string]cty.Value{"input": cty.StringVal("p")}),
			config:  object(map[string]cty.Value{"input": cty.StringVal("a")}),
			planned: object(map[string]cty.Value{"input": cty.StringVal("b")}),
			want:    []string{`.input: planned value cty.StringVal("b") does not match config value cty.StringVal("a") nor prior value cty.StringVal("p")`},
		},
		{
			name:    "configured value planned unknown",
			prior:   null,
			config:  object(map[string]cty.Value{"input": cty.StringVal("a")}),
			planned: object(map[string]cty.Value{"input": unkStr}),
			want:    []string{`.input: planned value cty.UnknownVal(cty.String) does not match config value cty.StringVal("a")`},
		},
		{
			name:    "unknown configured value stays unknown",
			prior:   null,
			config:  object(map[string]cty.Value{"input": unkStr}),
			planned: object(map[string]cty.Value{"input": unkStr.RefineNotNull()}),
		},
		{
			name:    "non-computed attribute given a default",
			prior:   null,
			config:  object(nil),
			planned: object(map[string]cty.Value{"input": cty.StringVal("d")}),
			want:    []string{`.input: planned value cty.StringVal("d") for a non-computed attribute`},
		},
		{
			name:    "sensitive value kept out of the message",
			prior:   null,
			config:  object(map[string]cty.Value{"secret": cty.StringVal("s")}),
			planned: object(map[string]cty.Value{"secret": cty.StringVal("t")}),
			want:    []string{`.secret: sensitive planned value does not match config value`},
		},
		{
			name:    "marked value kept out of the message",
			prior:   null,
			config:  object(map[string]cty.Value{"input": cty.StringVal("s").Mark("sensitive")}),
			planned: object(map[string]cty.Value{"input": cty.StringVal("t")}),
			want:    []string{`.input: sensitive planned value does not match config value`},
		},
		{
			name:    "block attribute changed",
			prior:   null,
			config:  object(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(80, nullStr), rule(443, nullStr)})}),
			planned: object(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(80, unkStr), rule(8443, unkStr)})}),
			want:    []string{`.rule[1].port: planned value cty.NumberIntVal(8443) does not match config value cty.NumberIntVal(443)`},
		},
		{
			name:    "block count changed",
			prior:   null,
			config:  object(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(80, nullStr)})}),
			planned: object(nil),
			want:    []string{`.rule: planned 0 blocks, but the configuration has 1`},
		},
		{
			name:    "list of blocks planned null",
			prior:   null,
			config:  object(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(80, nullStr)})}),
			planned: object(map[string]cty.Value{"rule": cty.NullVal(cty.List(ruleTy))}),
			want:    []string{`.rule: planned null for a list of blocks; no blocks is an empty list`},
		},
		{
			name:    "list of blocks planned unknown",
			prior:   null,
			config:  object(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(80, nullStr)})}),
			planned: object(map[string]cty.Value{"rule": cty.UnknownVal(cty.List(ruleTy))}),
			want:    []string{`.rule: planned the nested blocks as unknown; set their attributes unknown instead`},
		},
		{
			name:    "single block planned for absence",
			prior:   null,
			config:  object(map[string]cty.Value{"timeouts": cty.ObjectVal(map[string]cty.Value{"create": cty.StringVal("5m")})}),
			planned: object(nil),
			want:    []string{`.timeouts: planned for absence but config wants existence`},
		},
		{
			name:    "single block attribute changed",
			prior:   null,
			config:  object(map[string]cty.Value{"timeouts": cty.ObjectVal(map[string]cty.Value{"create": cty.StringVal("5m")})}),
			planned: object(map[string]cty.Value{"timeouts": cty.ObjectVal(map[string]cty.Value{"create": cty.StringVal("300s")})}),
			want:    []string{`.timeouts.create: planned value cty.StringVal("300s") does not match config value cty.StringVal("5m")`},
		},
		{
			name:    "map block key added",
			prior:   null,
			config:  object(map[string]cty.Value{"env": cty.MapVal(map[string]cty.Value{"a": env("1")})}),
			planned: object(map[string]cty.Value{"env": cty.MapVal(map[string]cty.Value{"a": env("1"), "b": env("2")})}),
			want:    []string{`.env: planned block key "b", which the configuration does not have`},
		},
		{
			name:    "map block attribute changed",
			prior:   null,
			config:  object(map[string]cty.Value{"env": cty.MapVal(map[string]cty.Value{"a": env("1")})}),
			planned: object(map[string]cty.Value{"env": cty.MapVal(map[string]cty.Value{"a": env("2")})}),
			want:    []string{`.env["a"].value: planned value cty.StringVal("2") does not match config value cty.StringVal("1")`},
		},
		{
			name:    "set blocks are trusted",
			prior:   null,
			config:  object(map[string]cty.Value{"ingress": cty.SetVal([]cty.Value{ingress(1, nullStr)})}),
			planned: object(map[string]cty.Value{"ingress": cty.SetVal([]cty.Value{ingress(2, unkStr), ingress(3, unkStr)})}),
		},
		{
			name:    "set block planned unknown",
			prior:   null,
			config:  object(map[string]cty.Value{"ingress": cty.SetVal([]cty.Value{ingress(1, nullStr)})}),
			planned: object(map[string]cty.Value{"ingress": cty.SetVal([]cty.Value{cty.UnknownVal(ingressTy)})}),
			want:    []string{`.ingress[*]: planned the block as unknown; set its attributes unknown instead`},
		},
		{
			name:    "nested attribute filled in where computed",
			prior:   null,
			config:  object(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{disk(10, nullStr)})}),
			planned: object(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{disk(10, cty.StringVal("ssd"))})}),
		},
		{
			name:    "nested attribute changed",
			prior:   null,
			config:  object(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{disk(10, nullStr)})}),
			planned: object(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{disk(20, nullStr)})}),
			want:    []string{`.disk[0].size: planned value cty.NumberIntVal(20) does not match config value cty.NumberIntVal(10)`},
		},
		{
			name:    "nested attribute planned unknown",
			prior:   null,
			config:  object(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{disk(10, nullStr)})}),
			planned: object(map[string]cty.Value{"disk": cty.UnknownVal(cty.List(diskTy))}),
			want:    []string{`.disk: planned unknown for a configured value`},
		},
		{
			name:    "wrong type",
			prior:   null,
			config:  object(nil),
			planned: cty.EmptyObjectVal,
			want:    []string{`planned object has the wrong type: attributes "disk", "env", "id", "ingress", "input", "names", "rule", "secret", "tags", and "timeouts" are required`},
		},
		{
			name:    "several errors in attribute order",
			prior:   null,
			config:  object(map[string]cty.Value{"input": cty.StringVal("a")}),
			planned: object(map[string]cty.Value{"input": cty.StringVal("b"), "names": cty.SetVal([]cty.Value{cty.StringVal("n")})}),
			want: []string{
				`.input: planned value cty.StringVal("b") does not match config value cty.StringVal("a")`,
				`.names: planned value cty.SetVal([]cty.Value{cty.StringVal("n")}) for a non-computed attribute`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorStrings(AssertPlanValid(checkSchema, tt.prior, tt.config, tt.planned))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("AssertPlanValid (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAssertObjectCompatible(t *testing.T) {
	null := cty.NullVal(checkSchema.ImpliedType())
	tests := []struct {
		name            string
		planned, actual cty.Value
		want            []string
	}{
		{
			name:    "unknowns become values",
			planned: object(map[string]cty.Value{"id": unkStr, "input": cty.StringVal("a"), "rule": cty.ListVal([]cty.Value{rule(80, unkStr)})}),
			actual:  object(map[string]cty.Value{"id": cty.StringVal("x"), "input": cty.StringVal("a"), "rule": cty.ListVal([]cty.Value{rule(80, cty.StringVal("arn"))})}),
		},
		{
			name:    "unknown becomes null",
			planned: object(map[string]cty.Value{"id": unkStr}),
			actual:  object(nil),
		},
		{
			name:    "refined unknown becomes null",
			planned: object(map[string]cty.Value{"id": unkStr.RefineNotNull()}),
			actual:  object(nil),
			want:    []string{`.id: final value cty.NullVal(cty.String) does not conform to planning placeholder cty.UnknownVal(cty.String).RefineNotNull()`},
		},
		{
			name:    "known value changed",
			planned: object(map[string]cty.Value{"input": cty.StringVal("a")}),
			actual:  object(map[string]cty.Value{"input": cty.StringVal("b")}),
			want:    []string{`.input: was cty.StringVal("a"), but now cty.StringVal("b")`},
		},
		{
			name:    "known value became null",
			planned: object(map[string]cty.Value{"input": cty.StringVal("a")}),
			actual:  object(nil),
			want:    []string{`.input: was cty.StringVal("a"), but now null`},
		},
		{
			name:    "sensitive value kept out of the message",
			planned: object(map[string]cty.Value{"secret": cty.StringVal("a")}),
			actual:  object(map[string]cty.Value{"secret": cty.StringVal("b")}),
			want:    []string{`.secret: inconsistent values for sensitive attribute`},
		},
		{
			name:    "map element appeared",
			planned: object(map[string]cty.Value{"tags": cty.MapValEmpty(cty.String)}),
			actual:  object(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")})}),
			want:    []string{`.tags["k"]: new element has appeared`},
		},
		{
			name:    "block attribute changed",
			planned: object(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(80, unkStr), rule(443, cty.StringVal("a"))})}),
			actual:  object(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(80, cty.StringVal("x")), rule(443, cty.StringVal("b"))})}),
			want:    []string{`.rule[1].arn: was cty.StringVal("a"), but now cty.StringVal("b")`},
		},
		{
			name:    "block count changed",
			planned: object(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(80, unkStr)})}),
			actual:  object(nil),
			want:    []string{`.rule: block count changed from 1 to 0`},
		},
		{
			name:    "set blocks correlate",
			planned: object(map[string]cty.Value{"ingress": cty.SetVal([]cty.Value{ingress(1, unkStr), ingress(2, unkStr)})}),
			actual:  object(map[string]cty.Value{"ingress": cty.SetVal([]cty.Value{ingress(1, cty.StringVal("a")), ingress(2, cty.StringVal("b"))})}),
		},
		{
			name:    "set blocks coalesce",
			planned: object(map[string]cty.Value{"ingress": cty.SetVal([]cty.Value{ingress(1, unkStr), ingress(1, unkStr.RefineNotNull())})}),
			actual:  object(map[string]cty.Value{"ingress": cty.SetVal([]cty.Value{ingress(1, cty.StringVal("a"))})}),
		},
		{
			name:    "set block appeared",
			planned: object(map[string]cty.Value{"ingress": cty.SetVal([]cty.Value{ingress(1, unkStr)})}),
			actual:  object(map[string]cty.Value{"ingress": cty.SetVal([]cty.Value{ingress(1, cty.StringVal("a")), ingress(2, cty.StringVal("b"))})}),
			want: []string{
				`.ingress: new block cty.ObjectVal(map[string]cty.Value{"from":cty.NumberIntVal(2), "id":cty.StringVal("b")}) does not correlate with any element in the plan`,
				`.ingress: set length changed from 1 to 2`,
			},
		},
		{
			name:    "set element replaced",
			planned: object(map[string]cty.Value{"names": cty.SetVal([]cty.Value{cty.StringVal("a")})}),
			actual:  object(map[string]cty.Value{"names": cty.SetVal([]cty.Value{cty.StringVal("b")})}),
			want: []string{
				`.names: planned element cty.StringVal("a") does not correlate with any element in the new set`,
				`.names: new element cty.StringVal("b") does not correlate with any element in the plan`,
			},
		},
		{
			name:    "map block changed",
			planned: object(map[string]cty.Value{"env": cty.MapVal(map[string]cty.Value{"a": env("1")})}),
			actual:  object(map[string]cty.Value{"env": cty.MapVal(map[string]cty.Value{"a": env("2")})}),
			want:    []string{`.env["a"].value: was cty.StringVal("1"), but now cty.StringVal("2")`},
		},
		{
			name:    "nested attribute changed",
			planned: object(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{disk(10, unkStr)})}),
			actual:  object(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{disk(20, cty.StringVal("ssd"))})}),
			want:    []string{`.disk[0].size: was cty.NumberIntVal(10), but now cty.NumberIntVal(20)`},
		},
		{
			name:    "object vanished",
			planned: object(nil),
			actual:  null,
			want:    []string{`root object was present, but now absent`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorStrings(AssertObjectCompatible(checkSchema, tt.planned, tt.actual))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("AssertObjectCompatible (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrorAt(t *testing.T) {
	errs := AssertPlanValid(checkSchema, cty.NullVal(checkSchema.ImpliedType()), object(map[string]cty.Value{"input": cty.StringVal("a")}), object(nil))
	if len(errs) != 1 {
		t.Fatalf("got %d errors, want 1", len(errs))
	}
	if got, want := ErrorAt("terraform_data.a", errs[0]), `terraform_data.a.input: planned value cty.NullVal(cty.String) does not match config value cty.StringVal("a")`; got != want {
		t.Errorf("ErrorAt = %q, want %q", got, want)
	}
}
