package cliargs

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestValues(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var on bool
	fs.Var(NewBool(func(b bool) { on = b }, func() bool { return on }), "on", "")
	var list List
	fs.Var(&list, "item", "")
	type limit struct {
		name string
		n    int
	}
	var limits []limit
	fs.Var(Limit{Add: func(name string, n int) { limits = append(limits, limit{name, n}) }}, "limit", "")
	if err := fs.Parse([]string{"-on", "-item=a", "-limit=aws=5", "-item", "b", "-limit", "aws_instance.web=1"}); err != nil {
		t.Fatal(err)
	}
	if !on || fs.Lookup("on").Value.String() != "true" {
		t.Errorf("-on alone: got %v", on)
	}
	if !slices.Equal(list, List{"a", "b"}) || list.String() != "a,b" {
		t.Errorf("items: got %q", list)
	}
	if !slices.Equal(limits, []limit{{"aws", 5}, {"aws_instance.web", 1}}) {
		t.Errorf("limits: got %v", limits)
	}
	for _, bad := range [][]string{{"-on=maybe"}, {"-limit=aws"}, {"-limit=aws=0"}, {"-limit==3"}, {"-limit=aws=x"}} {
		if err := fs.Parse(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	if err := fs.Parse([]string{"-on=false"}); err != nil || on {
		t.Errorf("-on=false: got %v, %v", on, err)
	}
	if s := NewBool(func(bool) {}, nil).String(); s != "false" {
		t.Errorf("a Bool without a getter reads %q, want false", s)
	}
}

func TestRefresh(t *testing.T) {
	for _, tc := range []struct {
		args                  []string
		value, changed, given bool
		text                  string
	}{
		{nil, true, false, false, "true"},
		{[]string{"-refresh"}, true, false, true, "true"},
		{[]string{"-refresh=false"}, false, false, true, "false"},
		{[]string{"-refresh=changed"}, true, true, true, "changed"},
		{[]string{"-refresh=changed", "-refresh=true"}, true, false, true, "true"},
	} {
		fs := flag.NewFlagSet("plan", flag.ContinueOnError)
		value, changed, given := true, false, false
		fs.Var(Refresh{Value: &value, Changed: &changed, Given: &given}, "refresh", "")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if value != tc.value || changed != tc.changed || given != tc.given || fs.Lookup("refresh").Value.String() != tc.text {
			t.Errorf("%v: got %v %v %v %q, want %v %v %v %q", tc.args, value, changed, given, fs.Lookup("refresh").Value.String(), tc.value, tc.changed, tc.given, tc.text)
		}
	}
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var value, changed, given bool
	fs.Var(Refresh{Value: &value, Changed: &changed, Given: &given}, "refresh", "")
	if err := fs.Parse([]string{"-refresh=sometimes"}); err == nil {
		t.Errorf("-refresh=sometimes: no error")
	}
}
