package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func expandData() *fakeData {
	d := testData()
	d.vars["unknown_n"] = cty.UnknownVal(cty.Number)
	d.vars["null_n"] = cty.NullVal(cty.Number)
	d.vars["secret"] = cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")}).Mark("sensitive")
	d.vars["unknown_map"] = cty.UnknownVal(cty.Map(cty.String))
	d.vars["unknown_elem"] = cty.SetVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)})
	return d
}

func TestEvalCount(t *testing.T) {
	s := &Scope{Data: expandData()}
	tests := []struct {
		src    string
		want   int
		detail string // substring of the "Invalid count argument" detail; "" for success
	}{
		{"3", 3, ""},
		{"0", 0, ""},
		{"var.n", 3, ""},
		{`"2"`, 2, ""},
		{"length(var.list)", 2, ""},
		{"var.unknown_n", -1, "cannot know yet how many instances to plan"},
		{"var.null_n", -1, `The given "count" argument value is null. An integer is required.`},
		{"-1", -1, "must be greater than or equal to zero"},
		{"1.5", -1, `The given "count" argument value is unsuitable: `},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, diags := EvalCount(s, parseExpr(t, tt.src))
			if got != tt.want {
				t.Errorf("count = %d, want %d", got, tt.want)
			}
			if tt.detail == "" {
				if diags.HasErrors() {
					t.Fatalf("unexpected diagnostics: %v", diags.Err())
				}
				return
			}
			if len(diags) != 1 || diags[0].Summary != "Invalid count argument" || !strings.Contains(diags[0].Detail, tt.detail) {
				t.Fatalf("diagnostics = %v, want Invalid count argument containing %q", diags, tt.detail)
			}
			if diags[0].Subject == nil || diags[0].Subject.Start.Line != 1 {
				t.Errorf("diagnostic range = %v", diags[0].Subject)
			}
		})
	}

	if _, diags := EvalCount(s, parseExpr(t, "var.list")); len(diags) != 1 || diags[0].Summary != "Incorrect value type" {
		t.Errorf("list count: %v, want Incorrect value type", diags)
	}
	if n, diags := EvalCount(s, nil); n != -1 || diags != nil {
		t.Errorf("nil count = %d %v", n, diags)
	}
}

func TestEvalForEach(t *testing.T) {
	s := &Scope{Data: expandData()}
	tests := []struct {
		src    string
		want   map[string]cty.Value
		detail string
	}{
		{`{a = 1, b = "x"}`, map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.StringVal("x")}, ""},
		{`local.tags`, map[string]cty.Value{"env": cty.StringVal("prod")}, ""},
		{`toset(var.list)`, map[string]cty.Value{"a": cty.StringVal("a"), "b": cty.StringVal("b")}, ""},
		{`toset([])`, map[string]cty.Value{}, ""},
		{`{}`, map[string]cty.Value{}, ""},
		{`{a = var.unknown}`, map[string]cty.Value{"a": cty.UnknownVal(cty.String)}, ""},
		{`var.list`, nil, `the "for_each" argument must be a map, or set of strings, and you have provided a value of type list of string.`},
		{`"a"`, nil, "you have provided a value of type string"},
		{`var.null_n == 1 ? {} : null`, nil, `the given "for_each" argument value is null. A map, or set of strings is allowed.`},
		{`var.unknown_map`, nil, `The "for_each" map has keys derived from resource attributes`},
		{`var.unknown_elem`, nil, `The "for_each" set has elements derived from resource attributes`},
		{`toset([1, 2])`, nil, `"for_each" supports sets of strings, but you have provided a set containing type number.`},
		{`var.secret`, nil, "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments."},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, diags := EvalForEach(s, parseExpr(t, tt.src))
			if tt.detail != "" {
				if len(diags) != 1 || diags[0].Summary != "Invalid for_each argument" || !strings.Contains(diags[0].Detail, tt.detail) {
					t.Fatalf("diagnostics = %v, want Invalid for_each argument containing %q", diags, tt.detail)
				}
				if got != nil {
					t.Errorf("result %v with errors", got)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %v", diags.Err())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if !got[k].RawEquals(v) {
					t.Errorf("[%q] = %#v, want %#v", k, got[k], v)
				}
			}
		})
	}
	if m, diags := EvalForEach(s, nil); m != nil || diags != nil {
		t.Errorf("nil for_each = %v %v", m, diags)
	}
}

// TestTooManyInstances checks that count and for_each stop at the scope's
// MaxInstances (DefaultMaxInstances when unset) with an error at the
// argument, and that counts beyond any machine integer are refused the
// same way rather than allocated.
func TestTooManyInstances(t *testing.T) {
	tests := []struct {
		name   string
		max    int
		count  string // a count argument, or "" for forEach
		each   string // a for_each argument
		detail string // substring of the "Too many instances" detail; "" for success
	}{
		{name: "count at the default limit", count: "100000"},
		{name: "count over the default limit", count: "100001", detail: `The "count" argument makes 100001 instances, more than the 100000 that rig allows`},
		{name: "count of 1e18", count: "1e18", detail: `makes 1000000000000000000 instances`},
		{name: "count beyond int64", count: "pow(10, 30)", detail: `The "count" argument makes more instances, more than the 100000`},
		{name: "count over a raised limit", max: 200_000, count: "200001", detail: "more than the 200000"},
		{name: "count under a lowered limit", max: 5, count: "5"},
		{name: "count over a lowered limit", max: 5, count: "6", detail: "raise the limit with max_instances = N in rig.hcl"},
		{name: "for_each over a lowered limit", max: 2, each: `toset(["a", "b", "c"])`, detail: `The "for_each" argument makes 3 instances, more than the 2`},
		{name: "for_each map over a lowered limit", max: 2, each: `{a = 1, b = 2, c = 3}`, detail: `makes 3 instances`},
		{name: "for_each at a lowered limit", max: 3, each: `{a = 1, b = 2, c = 3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Scope{Data: expandData(), Env: Env{MaxInstances: tt.max}}
			var diags []string
			var subjectLine int
			if tt.count != "" {
				n, ds := EvalCount(s, parseExpr(t, tt.count))
				if tt.detail != "" && n != -1 {
					t.Errorf("count = %d with errors", n)
				}
				for _, d := range ds {
					diags = append(diags, d.Summary+": "+d.Detail)
					if d.Subject != nil {
						subjectLine = d.Subject.Start.Line
					}
				}
			} else {
				m, ds := EvalForEach(s, parseExpr(t, tt.each))
				if tt.detail != "" && m != nil {
					t.Errorf("for_each = %v with errors", m)
				}
				for _, d := range ds {
					diags = append(diags, d.Summary+": "+d.Detail)
					if d.Subject != nil {
						subjectLine = d.Subject.Start.Line
					}
				}
			}
			if tt.detail == "" {
				if len(diags) > 0 {
					t.Fatalf("unexpected diagnostics: %q", diags)
				}
				return
			}
			if len(diags) != 1 || !strings.HasPrefix(diags[0], "Too many instances: ") || !strings.Contains(diags[0], tt.detail) {
				t.Fatalf("diagnostics = %q, want Too many instances containing %q", diags, tt.detail)
			}
			if subjectLine != 1 {
				t.Errorf("diagnostic not at the argument (line %d)", subjectLine)
			}
		})
	}
}
