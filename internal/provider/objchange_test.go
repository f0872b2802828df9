package provider

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestProposedNew(t *testing.T) {
	b := &Block{
		Attributes: map[string]*Attribute{
			"id":   {Type: cty.String, Computed: true},
			"name": {Type: cty.String, Required: true},
			"tags": {Type: cty.Map(cty.String), Optional: true, Computed: true},
		},
		BlockTypes: map[string]*NestedBlock{
			"rule": {Nesting: NestingList, Block: Block{Attributes: map[string]*Attribute{
				"port": {Type: cty.Number, Required: true},
				"arn":  {Type: cty.String, Computed: true},
			}}},
		},
	}
	ruleTy := cty.Object(map[string]cty.Type{"port": cty.Number, "arn": cty.String})
	obj := func(id, name cty.Value, tags cty.Value, rules cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": id, "name": name, "tags": tags, "rule": rules})
	}
	nullTags := cty.NullVal(cty.Map(cty.String))
	tags := cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b")})
	rule := func(port int64, arn cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "arn": arn})
	}
	nullStr := cty.NullVal(cty.String)
	tests := []struct {
		name                string
		prior, config, want cty.Value
	}{
		{
			name:   "create keeps computed null",
			prior:  cty.NullVal(b.ImpliedType()),
			config: obj(nullStr, cty.StringVal("x"), nullTags, cty.ListVal([]cty.Value{rule(80, nullStr)})),
			want:   obj(nullStr, cty.StringVal("x"), nullTags, cty.ListVal([]cty.Value{rule(80, nullStr)})),
		},
		{
			name:   "update takes computed from prior, nested by index",
			prior:  obj(cty.StringVal("i-1"), cty.StringVal("x"), tags, cty.ListVal([]cty.Value{rule(80, cty.StringVal("arn1"))})),
			config: obj(nullStr, cty.StringVal("y"), nullTags, cty.ListVal([]cty.Value{rule(80, nullStr), rule(443, nullStr)})),
			want:   obj(cty.StringVal("i-1"), cty.StringVal("y"), tags, cty.ListVal([]cty.Value{rule(80, cty.StringVal("arn1")), rule(443, nullStr)})),
		},
		{
			name:   "optional+computed set in config wins",
			prior:  obj(cty.StringVal("i-1"), cty.StringVal("x"), tags, cty.ListValEmpty(ruleTy)),
			config: obj(nullStr, cty.StringVal("x"), cty.MapValEmpty(cty.String), cty.ListValEmpty(ruleTy)),
			want:   obj(cty.StringVal("i-1"), cty.StringVal("x"), cty.MapValEmpty(cty.String), cty.ListValEmpty(ruleTy)),
		},
		{
			name:   "delete stays null",
			prior:  obj(cty.StringVal("i-1"), cty.StringVal("x"), tags, cty.ListValEmpty(ruleTy)),
			config: cty.NullVal(b.ImpliedType()),
			want:   cty.NullVal(b.ImpliedType()),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ProposedNew(b, tt.prior, tt.config)
			if !got.RawEquals(tt.want) {
				t.Fatalf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}
