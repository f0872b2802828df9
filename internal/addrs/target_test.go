package addrs

import (
	"fmt"
	"testing"
)

func TestTargetContainsInstance(t *testing.T) {
	x := Resource{Managed, "x", "y"}
	tests := []struct {
		name   string
		target string
		addr   AbsResourceInstance
		want   bool
	}{
		{name: "resource, any instance", target: "x.y", addr: x.Instance(IntKey(1)).Absolute(RootModule), want: true},
		{name: "resource, other module", target: "x.y", addr: x.Instance(NoKey).Absolute("module.a"), want: false},
		{name: "instance, same key", target: "x.y[1]", addr: x.Instance(IntKey(1)).Absolute(RootModule), want: true},
		{name: "instance, other key", target: "x.y[1]", addr: x.Instance(IntKey(0)).Absolute(RootModule), want: false},
		{name: "module call, every instance", target: "module.a", addr: x.Instance(NoKey).Absolute(`module.a["k"].module.b`), want: true},
		{name: "module instance, same key", target: `module.a["k"]`, addr: x.Instance(NoKey).Absolute(`module.a["k"]`), want: true},
		{name: "module instance, other key", target: `module.a["k"]`, addr: x.Instance(NoKey).Absolute(`module.a["j"]`), want: false},
		{name: "module, outside it", target: "module.a", addr: x.Instance(NoKey).Absolute(RootModule), want: false},
		{name: "module, same name prefix", target: "module.a", addr: x.Instance(NoKey).Absolute("module.ab"), want: false},
		{name: "resource in keyed module", target: `module.a[0].x.y`, addr: x.Instance(NoKey).Absolute("module.a[0]"), want: true},
		{name: "resource in module, keys must match", target: `module.a.x.y`, addr: x.Instance(NoKey).Absolute("module.a[0]"), want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tg, err := ParseTargetStr(tc.target)
			if err != nil {
				t.Fatal(err)
			}
			if got := tg.ContainsInstance(tc.addr); got != tc.want {
				t.Errorf("%s contains %s = %v, want %v", tc.target, tc.addr, got, tc.want)
			}
		})
	}
}

func TestParseTargetStrErrors(t *testing.T) {
	for _, in := range []string{"", "module", "x", "x.y.z", "module.a.x", "x.y[0][1]"} {
		if tg, err := ParseTargetStr(in); err == nil {
			t.Errorf("ParseTargetStr(%q) = %v, want an error", in, tg)
		}
	}
}

func ExampleParseTargetStr() {
	for _, s := range []string{"aws_x.y", "aws_x.y[0]", `module.a["k"]`, "module.a.data.d.n"} {
		t, _ := ParseTargetStr(s)
		fmt.Println(t.Kind, t)
	}
	// Output:
	// resource aws_x.y
	// instance aws_x.y[0]
	// module module.a["k"]
	// resource module.a.data.d.n
}
