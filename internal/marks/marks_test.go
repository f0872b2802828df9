package marks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

var pathCmp = cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })

func TestPathsAndMarkPaths(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"a": cty.StringVal("x").Mark(Sensitive),
		"b": cty.ListVal([]cty.Value{cty.StringVal("y"), cty.StringVal("z").Mark("sensitive")}),
		"c": cty.StringVal("w").Mark("other"),
	})
	uv, paths := Paths(v)
	if uv.ContainsMarked() {
		t.Errorf("Paths left marks: %#v", uv)
	}
	SortPaths(paths)
	want := []cty.Path{cty.GetAttrPath("a"), cty.GetAttrPath("b").IndexInt(1)}
	if diff := cmp.Diff(want, paths, pathCmp); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	back := MarkPaths(uv, paths)
	if !Has(back.GetAttr("a")) || Has(back.GetAttr("c")) || !Contains(back) || Contains(uv) {
		t.Errorf("MarkPaths: %#v", back)
	}
	if got := MarkPaths(cty.NullVal(uv.Type()), paths); got.IsMarked() {
		t.Errorf("a null value was marked: %#v", got)
	}
}

func TestSortPathsAsTerraformRecordsThem(t *testing.T) {
	paths := []cty.Path{
		cty.GetAttrPath("sensitive_content"),
		cty.GetAttrPath("tags").IndexString("b"),
		cty.GetAttrPath("rule").IndexInt(10).GetAttr("port"),
		cty.GetAttrPath("content"),
		cty.GetAttrPath("rule").IndexInt(2).GetAttr("port"),
		cty.GetAttrPath("tags").IndexString("a"),
	}
	SortPaths(paths)
	want := []cty.Path{
		cty.GetAttrPath("content"),
		// Rendered .rule[10].port sorts before .rule[2].port.
		cty.GetAttrPath("rule").IndexInt(10).GetAttr("port"),
		cty.GetAttrPath("rule").IndexInt(2).GetAttr("port"),
		cty.GetAttrPath("sensitive_content"),
		cty.GetAttrPath("tags").IndexString("a"),
		cty.GetAttrPath("tags").IndexString("b"),
	}
	if diff := cmp.Diff(want, paths, pathCmp); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := Union(want[:2], []cty.Path{cty.GetAttrPath("content"), cty.GetAttrPath("a")}); len(got) != 3 || !got[0].Equals(cty.GetAttrPath("a")) {
		t.Errorf("Union = %#v", got)
	}
}

func TestSecrets(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"plain": cty.StringVal("visible"),
		"pw":    cty.StringVal("hunter2").Mark(Sensitive),
		"n":     cty.NumberIntVal(4242).Mark(Sensitive),
		"flag":  cty.True.Mark(Sensitive),
		"whole": cty.MapVal(map[string]cty.Value{"k1": cty.StringVal("inner")}).Mark(Sensitive),
		"unk":   cty.UnknownVal(cty.String).Mark(Sensitive),
	})
	got := Secrets(v)
	want := map[string]bool{"hunter2": true, "4242": true, "k1": true, "inner": true}
	if len(got) != len(want) {
		t.Fatalf("Secrets = %q, want %v", got, want)
	}
	for _, s := range got {
		if !want[s] {
			t.Errorf("unexpected secret %q", s)
		}
	}
	if Secrets(cty.StringVal("x")) != nil {
		t.Error("an unmarked value has secrets")
	}
}

func TestRedactText(t *testing.T) {
	tests := []struct {
		name, in string
		secrets  []string
		want     string
	}{
		{"quoted", `cannot parse "hunter2" as an integer`, []string{"hunter2"}, `cannot parse (sensitive value) as an integer`},
		{"bare", `no user hunter2 here`, []string{"hunter2"}, `no user (sensitive value) here`},
		{"short bare secret kept", `a b c`, []string{"b"}, `a b c`},
		{"short quoted secret", `key "b" missing`, []string{"b"}, `key (sensitive value) missing`},
		{"longer first", `token abcdef`, []string{"abc", "abcdef"}, `token (sensitive value)`},
		{"no secret inside the stand-in", `x hunter2`, []string{"hunter2", "value"}, `x (sensitive value)`},
		{"none", `plain text`, nil, `plain text`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactText(tt.in, tt.secrets); got != tt.want {
				t.Errorf("RedactText(%q, %q) = %q, want %q", tt.in, tt.secrets, got, tt.want)
			}
		})
	}
}

// TestAny: Any finds a mark wherever cty.Value.ContainsMarked does.
func TestAny(t *testing.T) {
	s := cty.StringVal("s").Mark("sensitive")
	tests := []cty.Value{
		cty.NilVal,
		cty.StringVal("x"),
		s,
		cty.NullVal(cty.String).Mark("sensitive"),
		cty.UnknownVal(cty.String),
		cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.ListVal([]cty.Value{cty.StringVal("y")})}),
		cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.ListVal([]cty.Value{s})}),
		cty.TupleVal([]cty.Value{cty.True, cty.MapVal(map[string]cty.Value{"k": s})}),
		cty.SetVal([]cty.Value{cty.StringVal("p"), s}),
		cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"deep": cty.TupleVal([]cty.Value{s})})}),
		cty.ListValEmpty(cty.String).Mark("x"),
		cty.DynamicVal,
		cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String), cty.StringVal("b")}),
		cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String), s}),
	}
	// Long lists and tuples, their last element marked or not.
	for _, n := range []int{63, 64, 65, 200} {
		plain := make([]cty.Value, n)
		for i := range plain {
			plain[i] = cty.StringVal("e")
		}
		last := append(plain[:n-1:n-1], s)
		tests = append(tests, cty.ListVal(plain), cty.TupleVal(plain), cty.ListVal(last), cty.TupleVal(last))
	}
	for _, v := range tests {
		want := v != cty.NilVal && v.ContainsMarked()
		if got := Any(v); got != want {
			t.Errorf("Any(%#v) = %v, want %v", v, got, want)
		}
	}
}
