package instance_test

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/instance"
)

func traversals(t *testing.T, srcs ...string) []hcl.Traversal {
	t.Helper()
	var out []hcl.Traversal
	for _, s := range srcs {
		trav, ds := hclsyntax.ParseTraversalAbs([]byte(s), "ignore", hcl.InitialPos)
		if ds.HasErrors() {
			t.Fatalf("%s: %s", s, ds.Error())
		}
		out = append(out, trav)
	}
	return out
}

func TestApplyIgnoreChanges(t *testing.T) {
	strs := func(ss ...string) cty.Value {
		var vs []cty.Value
		for _, s := range ss {
			vs = append(vs, cty.StringVal(s))
		}
		return cty.ListVal(vs)
	}
	smap := func(kv ...string) cty.Value {
		m := map[string]cty.Value{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = cty.StringVal(kv[i+1])
		}
		if len(m) == 0 {
			return cty.MapValEmpty(cty.String)
		}
		return cty.MapVal(m)
	}
	obj := func(attrs map[string]cty.Value) cty.Value {
		base := map[string]cty.Value{
			"id":   cty.NullVal(cty.String),
			"name": cty.NullVal(cty.String),
			"list": cty.NullVal(cty.List(cty.String)),
			"tags": cty.NullVal(cty.Map(cty.String)),
			"any":  cty.NullVal(cty.DynamicPseudoType),
		}
		for k, v := range attrs {
			base[k] = v
		}
		return cty.ObjectVal(base)
	}
	tests := []struct {
		name       string
		ignore     []string
		all        bool
		prior, cfg cty.Value
		want       cty.Value
	}{
		{
			name:   "nothing ignored",
			prior:  obj(map[string]cty.Value{"name": cty.StringVal("old")}),
			cfg:    obj(map[string]cty.Value{"name": cty.StringVal("new")}),
			want:   obj(map[string]cty.Value{"name": cty.StringVal("new")}),
			ignore: nil,
		},
		{
			name:   "an attribute",
			ignore: []string{"name"},
			prior:  obj(map[string]cty.Value{"name": cty.StringVal("old"), "list": strs("a")}),
			cfg:    obj(map[string]cty.Value{"name": cty.StringVal("new"), "list": strs("b")}),
			want:   obj(map[string]cty.Value{"name": cty.StringVal("old"), "list": strs("b")}),
		},
		{
			name:   "an attribute set in config but null before",
			ignore: []string{"name"},
			prior:  obj(nil),
			cfg:    obj(map[string]cty.Value{"name": cty.StringVal("new")}),
			want:   obj(nil),
		},
		{
			name:   "a list element",
			ignore: []string{"list[1]"},
			prior:  obj(map[string]cty.Value{"list": strs("a", "b")}),
			cfg:    obj(map[string]cty.Value{"list": strs("x", "y")}),
			want:   obj(map[string]cty.Value{"list": strs("x", "b")}),
		},
		{
			name:   "a map element that changed",
			ignore: []string{`tags["a"]`},
			prior:  obj(map[string]cty.Value{"tags": smap("a", "1", "b", "1")}),
			cfg:    obj(map[string]cty.Value{"tags": smap("a", "2", "b", "2")}),
			want:   obj(map[string]cty.Value{"tags": smap("a", "1", "b", "2")}),
		},
		{
			name:   "a map element added in config stays absent",
			ignore: []string{`tags["new"]`},
			prior:  obj(map[string]cty.Value{"tags": smap("a", "1")}),
			cfg:    obj(map[string]cty.Value{"tags": smap("a", "1", "new", "x")}),
			want:   obj(map[string]cty.Value{"tags": smap("a", "1")}),
		},
		{
			name:   "a map element removed in config is kept",
			ignore: []string{`tags["a"]`},
			prior:  obj(map[string]cty.Value{"tags": smap("a", "1")}),
			cfg:    obj(map[string]cty.Value{"tags": smap()}),
			want:   obj(map[string]cty.Value{"tags": smap("a", "1")}),
		},
		{
			name:   "a map element of a map that was null",
			ignore: []string{`tags["a"]`},
			prior:  obj(nil),
			cfg:    obj(map[string]cty.Value{"tags": smap("a", "1")}),
			want:   obj(map[string]cty.Value{"tags": cty.MapValEmpty(cty.String)}),
		},
		{
			name:   "the last map element removed from a null config map stays null",
			ignore: []string{`tags["a"]`},
			prior:  obj(map[string]cty.Value{"tags": smap("b", "1")}),
			cfg:    obj(nil),
			want:   obj(nil),
		},
		{
			name:   "a whole map",
			ignore: []string{"tags"},
			prior:  obj(map[string]cty.Value{"tags": smap("a", "1")}),
			cfg:    obj(map[string]cty.Value{"tags": smap("b", "2")}),
			want:   obj(map[string]cty.Value{"tags": smap("a", "1")}),
		},
		{
			name:   "a dynamic attribute whose type changed",
			ignore: []string{"any"},
			prior:  obj(map[string]cty.Value{"any": cty.StringVal("s")}),
			cfg:    obj(map[string]cty.Value{"any": cty.ObjectVal(map[string]cty.Value{"k": cty.True})}),
			want:   obj(map[string]cty.Value{"any": cty.StringVal("s")}),
		},
		{
			name:   "a key of an object ignores the whole object",
			ignore: []string{`any["k"]`},
			prior:  obj(map[string]cty.Value{"any": cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("1"), "l": cty.StringVal("1")})}),
			cfg:    obj(map[string]cty.Value{"any": cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("2"), "l": cty.StringVal("2")})}),
			want:   obj(map[string]cty.Value{"any": cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("1"), "l": cty.StringVal("1")})}),
		},
		{
			name:   "an unknown configured value is ignored too",
			ignore: []string{"name"},
			prior:  obj(map[string]cty.Value{"name": cty.StringVal("old")}),
			cfg:    obj(map[string]cty.Value{"name": cty.UnknownVal(cty.String)}),
			want:   obj(map[string]cty.Value{"name": cty.StringVal("old")}),
		},
		{
			name:   "a path the value does not have",
			ignore: []string{"nope", "list[5]"},
			prior:  obj(map[string]cty.Value{"list": strs("a")}),
			cfg:    obj(map[string]cty.Value{"list": strs("b")}),
			want:   obj(map[string]cty.Value{"list": strs("b")}),
		},
		{
			name:  "all",
			all:   true,
			prior: obj(map[string]cty.Value{"name": cty.StringVal("old"), "tags": smap("a", "1")}),
			cfg:   obj(map[string]cty.Value{"name": cty.StringVal("new"), "list": strs("x")}),
			want:  obj(map[string]cty.Value{"name": cty.StringVal("old"), "tags": smap("a", "1")}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lc := &config.ManagedLifecycle{IgnoreChanges: traversals(t, tt.ignore...), IgnoreAllChanges: tt.all}
			got := instance.ApplyIgnoreChanges(lc, tt.prior, tt.cfg)
			if !got.RawEquals(tt.want) {
				t.Errorf("got  %s\nwant %s", got.GoString(), tt.want.GoString())
			}
		})
	}
}
