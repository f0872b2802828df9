package addrs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Keys whose index syntax holds what a scanner could trip on: brackets,
// dots, quotes, escapes, control characters and non-ASCII text.
var trickyKeys = []InstanceKey{
	NoKey, IntKey(0), IntKey(10), IntKey(2), StringKey(""), StringKey("k"),
	StringKey(`x]"y`), StringKey("a.module.b"), StringKey(`\`), StringKey("tab\there\nline\x01"),
	StringKey("ключ"), StringKey(`["nested"]`),
}

func trickyInstances() []ModuleInstance {
	out := []ModuleInstance{RootModule}
	for _, k := range trickyKeys {
		m := RootModule.Child("a", k)
		out = append(out, m, m.Child("b", IntKey(3)), m.Child("b_2", k).Child("c-d", StringKey("z")))
	}
	return out
}

// referenceCompare is ModuleInstance.Compare by its definition: step by
// step on the paths as the HCL parser reads them.
func referenceCompare(t *testing.T, m, o ModuleInstance) int {
	var a, b []ModuleCallInstance
	var err error
	if !m.IsRoot() {
		if a, err = parseModuleSteps(string(m)); err != nil {
			t.Fatal(err)
		}
	}
	if !o.IsRoot() {
		if b, err = parseModuleSteps(string(o)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].Name != b[i].Name {
			if a[i].Name < b[i].Name {
				return -1
			}
			return 1
		}
		if c := a[i].Key.Compare(b[i].Key); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

func sign(c int) int { return min(max(c, -1), 1) }

func TestModuleInstanceStepsMatchParser(t *testing.T) {
	for _, m := range trickyInstances() {
		var want []ModuleCallInstance
		if !m.IsRoot() {
			var err error
			if want, err = parseModuleSteps(string(m)); err != nil {
				t.Fatalf("%q: %v", m, err)
			}
		}
		got := m.Steps()
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(InstanceKey{})); diff != "" {
			t.Errorf("%q: Steps() (-want +got):\n%s", m, diff)
		}
		if m.IsRoot() {
			continue
		}
		parent, step := m.Parent()
		if step != got[len(got)-1] || parent.Child(step.Name, step.Key) != m {
			t.Errorf("%q: Parent() = %q, %v", m, parent, step)
		}
	}
}

func TestModuleInstanceCompareMatchesSteps(t *testing.T) {
	all := trickyInstances()
	for _, m := range all {
		for _, o := range all {
			if got, want := sign(m.Compare(o)), sign(referenceCompare(t, m, o)); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", m, o, got, want)
			}
		}
	}
}

func FuzzModuleInstanceSteps(f *testing.F) {
	f.Add("a", "k", 3, "b", `x]"y`)
	f.Add("a", "", 0, "b", "a.module.b")
	f.Fuzz(func(t *testing.T, n1, k1 string, i int, n2, k2 string) {
		if !validName(n1) || !validName(n2) || i < 0 {
			t.Skip()
		}
		m := RootModule.Child(n1, StringKey(k1)).Child(n2, IntKey(i))
		o := RootModule.Child(n1, IntKey(i)).Child(n2, StringKey(k2))
		for _, x := range []ModuleInstance{m, o} {
			want, err := parseModuleSteps(string(x))
			if err != nil {
				t.Skip() // a key the HCL parser reads otherwise than quote writes it
			}
			if diff := cmp.Diff(want, x.Steps(), cmp.AllowUnexported(InstanceKey{})); diff != "" {
				t.Errorf("%q: Steps() (-want +got):\n%s", x, diff)
			}
		}
		if got, want := sign(m.Compare(o)), sign(referenceCompare(t, m, o)); got != want {
			t.Errorf("Compare(%q, %q) = %d, want %d", m, o, got, want)
		}
	})
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r == '-' || r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}
