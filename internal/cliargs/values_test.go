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
