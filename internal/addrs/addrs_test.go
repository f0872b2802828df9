package addrs

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

func TestParseAbsResourceInstanceStr(t *testing.T) {
	tests := []struct {
		in      string
		want    AbsResourceInstance
		wantErr bool
	}{
		{in: "terraform_data.a", want: Resource{Managed, "terraform_data", "a"}.Instance(NoKey).Absolute(RootModule)},
		{in: "terraform_data.a[3]", want: Resource{Managed, "terraform_data", "a"}.Instance(IntKey(3)).Absolute(RootModule)},
		{in: `terraform_data.a["x y"]`, want: Resource{Managed, "terraform_data", "a"}.Instance(StringKey("x y")).Absolute(RootModule)},
		{in: "data.d.n", want: Resource{Data, "d", "n"}.Instance(NoKey).Absolute(RootModule)},
		{in: `module.m["k"].x.y[1]`, want: Resource{Managed, "x", "y"}.Instance(IntKey(1)).Absolute(`module.m["k"]`)},
		{in: "a", wantErr: true},
		{in: "a.b.c", wantErr: true},
		{in: "a.b[-1]", wantErr: true},
		{in: "a.b[", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAbsResourceInstanceStr(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if got != tt.want {
				t.Fatalf("got %#v, want %#v", got, tt.want)
			}
			if got.String() != tt.in {
				t.Fatalf("String() = %q, want round trip %q", got.String(), tt.in)
			}
		})
	}
}

func TestAbsProviderConfigRoundTrip(t *testing.T) {
	tests := []string{
		`provider["registry.terraform.io/hashicorp/null"]`,
		`provider["terraform.io/builtin/terraform"]`,
		`provider["registry.terraform.io/hashicorp/aws"].west`,
		`module.m.provider["example.com/acme/thing"]`,
		`provider["registry.terraform.io/hashicorp/aws"].by_region["eu-west-1"]`,
		`provider["registry.terraform.io/hashicorp/aws"].by_index[2]`,
		`provider["registry.terraform.io/hashicorp/aws"].odd["a.b[\"c\"]"]`,
	}
	for _, in := range tests {
		pc, err := ParseAbsProviderConfig(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if pc.String() != in {
			t.Fatalf("round trip: got %s, want %s", pc.String(), in)
		}
	}
	for _, bad := range []string{`provider[null]`, `provider["hashicorp/aws"].[0]`, `provider["hashicorp/aws"].a[b]`, `provider["hashicorp/aws"].a["x"]["y"]`} {
		if _, err := ParseAbsProviderConfig(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	pc, err := ParseAbsProviderConfig(`provider["hashicorp/aws"].by_region["eu"]`)
	if err != nil || pc.Alias != "by_region" || pc.Key != StringKey("eu") || pc.Config().String() != `provider["registry.terraform.io/hashicorp/aws"].by_region` {
		t.Errorf("keyed configuration parsed as %#v, %v", pc, err)
	}
}

func TestInstanceSortOrder(t *testing.T) {
	r := Resource{Managed, "t", "n"}
	addrs := []AbsResourceInstance{
		r.Instance(StringKey("b")).Absolute(RootModule),
		r.Instance(IntKey(10)).Absolute(RootModule),
		r.Instance(IntKey(2)).Absolute(RootModule),
		Resource{Managed, "a", "z"}.Instance(NoKey).Absolute(RootModule),
		r.Instance(StringKey("a")).Absolute(RootModule),
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i].Less(addrs[j]) })
	got := fmt.Sprint(addrs)
	want := `[a.z t.n[2] t.n[10] t.n["a"] t.n["b"]]`
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestAddressesAreMapKeys(t *testing.T) {
	m := map[AbsResourceInstance]int{}
	a := Resource{Managed, "t", "n"}.Instance(IntKey(1)).Absolute(RootModule)
	b := Resource{Managed, "t", "n"}.Instance(IntKey(1)).Absolute(RootModule)
	m[a] = 1
	if m[b] != 1 {
		t.Fatal("equal addresses are not equal map keys")
	}
}

func ExampleAbsResourceInstance_String() {
	addr := AbsResourceInstance{Resource: ResourceInstance{
		Resource: Resource{Mode: Managed, Type: "terraform_data", Name: "a"},
		Key:      StringKey("web"),
	}}
	fmt.Println(addr)
	fmt.Println(ObjectAddr{Instance: addr, Deposed: "00c0ffee"})
	// Output:
	// terraform_data.a["web"]
	// terraform_data.a["web"] (deposed object 00c0ffee)
}

func TestModuleInstancePaths(t *testing.T) {
	tests := []struct {
		in     string
		static Module
		parent ModuleInstance
		step   string
	}{
		{`module.a`, "module.a", RootModule, `module.a`},
		{`module.a["x"].module.b`, "module.a.module.b", `module.a["x"]`, `module.b`},
		{`module.a["x]\"y"].module.b[3]`, "module.a.module.b", `module.a["x]\"y"]`, `module.b[3]`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := ParseModuleInstanceStr(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(m) != tt.in {
				t.Errorf("round trip: got %q", m)
			}
			if got := m.Module(); got != tt.static {
				t.Errorf("Module() = %q, want %q", got, tt.static)
			}
			parent, step := m.Parent()
			if parent != tt.parent || step.String() != tt.step {
				t.Errorf("Parent() = %q, %q; want %q, %q", parent, step, tt.parent, tt.step)
			}
			if parent.Child(step.Name, step.Key) != m {
				t.Errorf("Child(Parent()) does not give %q back", m)
			}
		})
	}
	if _, err := ParseModuleInstanceStr(`module.a.aws_x.y`); err == nil {
		t.Error("a resource address parsed as a module instance")
	}
}

func TestModuleInstanceCompare(t *testing.T) {
	ordered := []ModuleInstance{"", `module.a`, `module.a[2]`, `module.a[10]`, `module.a[10].module.b`, `module.a["k"]`, `module.b`}
	for i := range ordered {
		for j := range ordered {
			got := ordered[i].Compare(ordered[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if (got < 0) != (want < 0) || (got > 0) != (want > 0) {
				t.Errorf("Compare(%q, %q) = %d, want sign %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func TestStaticModulePath(t *testing.T) {
	m := RootModuleStatic.Child("a").Child("b")
	if m != "module.a.module.b" || m.Depth() != 2 {
		t.Fatalf("got %q depth %d", m, m.Depth())
	}
	parent, name := m.Parent()
	if parent != "module.a" || name != "b" {
		t.Errorf("Parent() = %q, %q", parent, name)
	}
	if got := m.Calls(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("Calls() = %v", got)
	}
}

func TestProviderSameAs(t *testing.T) {
	tf := NewDefaultProvider("random")
	tofu := tf.WithHostname(OpenTofuRegistryHost)
	other := tf.WithHostname("example.com")
	tests := []struct {
		name string
		a, b Provider
		want bool
	}{
		{"equal", tf, tf, true},
		{"Terraform's and OpenTofu's registry", tf, tofu, true},
		{"OpenTofu's and Terraform's registry", tofu, tf, true},
		{"another host", tf, other, false},
		{"another type", tf, NewDefaultProvider("null").WithHostname(OpenTofuRegistryHost), false},
		{"another namespace", tf, Provider{Hostname: OpenTofuRegistryHost, Namespace: "acme", Type: "random"}, false},
	}
	for _, tt := range tests {
		if got := tt.a.SameAs(tt.b); got != tt.want {
			t.Errorf("%s: %s.SameAs(%s) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
	if tofu.ForDisplay() != "hashicorp/random" || other.ForDisplay() != "example.com/hashicorp/random" {
		t.Errorf("ForDisplay: %q, %q", tofu.ForDisplay(), other.ForDisplay())
	}
	for src, want := range map[string]bool{"random": false, "hashicorp/random": false, "registry.opentofu.org/hashicorp/random": true} {
		if got := SourceNamesHost(src); got != want {
			t.Errorf("SourceNamesHost(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestConfigResourceCompareFollowsString(t *testing.T) {
	rs := []ConfigResource{
		{Resource: Resource{Mode: Managed, Type: "a", Name: "b"}},
		{Resource: Resource{Mode: Managed, Type: "a_b", Name: "c"}},
		{Resource: Resource{Mode: Managed, Type: "ab", Name: "c"}},
		{Resource: Resource{Mode: Data, Type: "a", Name: "b"}},
		{Resource: Resource{Mode: Managed, Type: "data", Name: "x"}},
		{Module: "module.m", Resource: Resource{Mode: Managed, Type: "a", Name: "b"}},
		{Module: "module.m.module.n", Resource: Resource{Mode: Data, Type: "a", Name: "b"}},
		{Module: "module.mm", Resource: Resource{Mode: Managed, Type: "a", Name: "b"}},
		{Resource: Resource{Mode: Managed, Type: "terraform_data", Name: "a"}},
	}
	for _, x := range rs {
		for _, y := range rs {
			if got, want := x.Compare(y), strings.Compare(x.String(), y.String()); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", x, y, got, want)
			}
		}
	}
}

// Every address type prints in the syntax it parses from, and its Compare
// is consistent with equality.
func TestAddressRoundTrips(t *testing.T) {
	for _, s := range []string{`aws_x.y`, `data.aws_x.y[0]`, `module.a["k"].aws_x.y["z"]`, `module.a[1].module.b.aws_x.y`} {
		ri, err := ParseAbsResourceInstanceStr(s)
		if err != nil || ri.String() != s {
			t.Errorf("ParseAbsResourceInstanceStr(%q) = %q, %v", s, ri, err)
		}
		if ri.Compare(ri) != 0 || (ObjectAddr{Instance: ri}).Compare(ObjectAddr{Instance: ri}) != 0 {
			t.Errorf("%s does not compare equal to itself", s)
		}
	}
	for _, s := range []string{`provider["registry.terraform.io/hashicorp/aws"]`, `module.m.provider["registry.terraform.io/hashicorp/aws"].west`} {
		pc, err := ParseAbsProviderConfig(s)
		if err != nil || pc.String() != s || pc.Compare(pc) != 0 {
			t.Errorf("ParseAbsProviderConfig(%q) = %q, %v", s, pc, err)
		}
	}
	a := ObjectAddr{Instance: mustInstance(t, "aws_x.y")}
	b := ObjectAddr{Instance: a.Instance, Deposed: "00000001"}
	if a.Compare(b) >= 0 || b.Compare(a) <= 0 || a.Less(b) != (a.Compare(b) < 0) {
		t.Error("the current object does not sort before its deposed one")
	}
	if RootModuleStatic.Child("a").Compare(RootModuleStatic.Child("b")) >= 0 || RootModuleStatic.Compare(RootModuleStatic.Child("a")) >= 0 {
		t.Error("static module paths do not sort by name, the root first")
	}
}

func mustInstance(t *testing.T, s string) AbsResourceInstance {
	t.Helper()
	ri, err := ParseAbsResourceInstanceStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return ri
}
