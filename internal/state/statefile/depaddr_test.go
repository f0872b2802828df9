package statefile

import (
	"math/rand/v2"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
)

// The shortcut accepts only what the general parser accepts in canonical
// form, with the same result.
func TestPlainManagedAddrAgreesWithParser(t *testing.T) {
	cases := []struct {
		in     string
		accept bool
	}{
		{"terraform_data.l3_5", true},
		{"aws_instance.web-1", true},
		{"a.b", true},
		{"null.x", true},
		{"true.false", true},
		{"data.aws_ami.x", false},
		{"ephemeral.random_password.p", false},
		{"module.m.aws_instance.x", false},
		{"data.x", false},
		{"module.x", false},
		{"ephemeral.x", false},
		{"aws_instance.x[0]", false},
		{`aws_instance.x["k"]`, false},
		{"aws_instance", false},
		{"aws_instance.", false},
		{".x", false},
		{"a..b", false},
		{"a.b.c", false},
		{"_a.b", false},
		{"a._b", false},
		{"1a.b", false},
		{"a.1b", false},
		{"-a.b", false},
		{"a.-b", false},
		{"a b.c", false},
		{"ä.b", false},
		{"", false},
	}
	for _, tc := range cases {
		got, ok := plainManagedAddr([]byte(tc.in))
		if ok != tc.accept {
			t.Errorf("plainManagedAddr(%q) ok = %v, want %v", tc.in, ok, tc.accept)
		}
		if ok {
			checkAgainstParser(t, tc.in, got)
		}
	}
	// Random strings over the characters that matter.
	const alphabet = "ab_-.0Z9[]\"m"
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, 1+r.IntN(8))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if got, ok := plainManagedAddr(b); ok {
			checkAgainstParser(t, string(b), got)
		}
	}
}

func checkAgainstParser(t *testing.T, in string, got addrs.AbsResource) {
	t.Helper()
	want, err := addrs.ParseAbsResourceStr(in)
	if err != nil {
		t.Fatalf("plainManagedAddr accepted %q, which the parser refuses: %v", in, err)
	}
	if got != want || want.String() != in {
		t.Fatalf("plainManagedAddr(%q) = %#v, parser %#v (prints %q)", in, got, want, want.String())
	}
}

// TestKeptListsAreCapped: the dependency lists a state decodes share
// blocks of memory, but appending to one never changes another.
func TestKeptListsAreCapped(t *testing.T) {
	src := `{"version": 4, "serial": 1, "lineage": "l", "resources": [
  {"mode": "managed", "type": "t", "name": "a", "provider": "provider[\"registry.opentofu.org/hashicorp/t\"]",
   "instances": [{"attributes": {}, "dependencies": ["t.x", "t.y"]}]},
  {"mode": "managed", "type": "t", "name": "b", "provider": "provider[\"registry.opentofu.org/hashicorp/t\"]",
   "instances": [{"attributes": {}, "dependencies": ["t.z"]}]}
]}`
	st, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	deps := func(name string) []addrs.AbsResource {
		return st.Resources[addrs.AbsResource{Resource: addrs.Resource{Mode: addrs.Managed, Type: "t", Name: name}}].Instances[addrs.NoKey].Current.Dependencies
	}
	a := deps("a")
	_ = append(a, addrs.AbsResource{Resource: addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "changed"}})
	if got := deps("b"); len(got) != 1 || got[0].String() != "t.z" {
		t.Errorf("b's dependencies are %v after appending to a's, want [t.z]", got)
	}
}
