package addrs

import (
	"testing"
	"unicode/utf8"

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
// step, by name, then key.
func referenceCompare(a, b []ModuleCallInstance) int {
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

// parsedSteps reads m with the HCL parser.
func parsedSteps(t *testing.T, m ModuleInstance) []ModuleCallInstance {
	t.Helper()
	if m.IsRoot() {
		return nil
	}
	steps, err := parseModuleSteps(string(m))
	if err != nil {
		t.Fatalf("%q: %v", m, err)
	}
	return steps
}

func sign(c int) int { return min(max(c, -1), 1) }

func TestModuleInstanceStepsMatchParser(t *testing.T) {
	for _, m := range trickyInstances() {
		want := parsedSteps(t, m)
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
			if got, want := sign(m.Compare(o)), sign(referenceCompare(parsedSteps(t, m), parsedSteps(t, o))); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", m, o, got, want)
			}
		}
	}
}

// FuzzModuleInstanceSteps checks that Steps gives back the steps a path
// was built from (the HCL parser would normalize a key's text to NFC), and
// that Compare orders by them.
func FuzzModuleInstanceSteps(f *testing.F) {
	f.Add("a", "k", 3, "b", `x]"y`)
	f.Add("a", "", 0, "b", "a.module.b")
	f.Add("A", "\u0301", 3, "A", "0")
	f.Fuzz(func(t *testing.T, n1, k1 string, i int, n2, k2 string) {
		if !validName(n1) || !validName(n2) || i < 0 || !utf8.ValidString(k1) || !utf8.ValidString(k2) {
			t.Skip() // keys come from cty strings, always UTF-8
		}
		a := []ModuleCallInstance{{n1, StringKey(k1)}, {n2, IntKey(i)}}
		b := []ModuleCallInstance{{n1, IntKey(i)}, {n2, StringKey(k2)}, {n1, NoKey}}
		build := func(steps []ModuleCallInstance) ModuleInstance {
			m := RootModule
			for _, st := range steps {
				m = m.Child(st.Name, st.Key)
			}
			return m
		}
		m, o := build(a), build(b)
		for _, x := range []struct {
			m     ModuleInstance
			steps []ModuleCallInstance
		}{{m, a}, {o, b}} {
			if diff := cmp.Diff(x.steps, x.m.Steps(), cmp.AllowUnexported(InstanceKey{})); diff != "" {
				t.Errorf("%q: Steps() (-want +got):\n%s", x.m, diff)
			}
			parent, last := x.m.Parent()
			if parent != build(x.steps[:len(x.steps)-1]) || last != x.steps[len(x.steps)-1] {
				t.Errorf("%q: Parent() = %q, %v", x.m, parent, last)
			}
		}
		for _, pair := range [][2]int{{0, 1}, {1, 0}} {
			x, y := []ModuleInstance{m, o}[pair[0]], []ModuleInstance{m, o}[pair[1]]
			xs, ys := [][]ModuleCallInstance{a, b}[pair[0]], [][]ModuleCallInstance{a, b}[pair[1]]
			if got, want := sign(x.Compare(y)), sign(referenceCompare(xs, ys)); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", x, y, got, want)
			}
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
