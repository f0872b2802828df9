package addrs

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Module is a module's static path in the configuration, the call names
// from the root without instance keys: "module.net.module.subnet". The root
// module is RootModuleStatic (""). Every instance of a module shares its
// Module path; its configuration is found by it.
type Module string

// RootModuleStatic is the static path of the root module.
const RootModuleStatic Module = ""

// IsRoot reports whether m is the root module.
func (m Module) IsRoot() bool { return m == RootModuleStatic }

// String returns the path in user syntax, "" for the root.
func (m Module) String() string { return string(m) }

// Child returns the path of the module that call name, in m, calls.
func (m Module) Child(name string) Module {
	if m.IsRoot() {
		return Module("module." + name)
	}
	return Module(string(m) + ".module." + name)
}

// Calls returns the call names along the path, from the root; nil for the root.
func (m Module) Calls() []string {
	if m.IsRoot() {
		return nil
	}
	parts := strings.Split(string(m), ".")
	out := make([]string, 0, len(parts)/2)
	for i := 1; i < len(parts); i += 2 {
		out = append(out, parts[i])
	}
	return out
}

// Parent returns the path of the module that calls m and the call's name;
// the root has no parent (it returns the root and "").
func (m Module) Parent() (Module, string) {
	if m.IsRoot() {
		return RootModuleStatic, ""
	}
	s := string(m)
	i := strings.LastIndex(s, ".module.")
	if i < 0 {
		return RootModuleStatic, strings.TrimPrefix(s, "module.")
	}
	return Module(s[:i]), s[i+len(".module."):]
}

// Depth returns the number of calls from the root to m.
func (m Module) Depth() int {
	if m.IsRoot() {
		return 0
	}
	return strings.Count(string(m), "module.")
}

// ConfigResource names a resource block in the configuration, in a static
// module path: every instance of every module instance shares it.
type ConfigResource struct {
	Module   Module
	Resource Resource
}

// String returns the address in user syntax: module.m.aws_instance.y.
func (r ConfigResource) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return string(r.Module) + "." + r.Resource.String()
}

// Compare orders by the addresses as written (String), the order in
// which OpenTofu sorts recorded dependencies, without building them.
func (r ConfigResource) Compare(o ConfigResource) int {
	if r == o {
		return 0
	}
	a, b := r.parts(), o.parts()
	return compareConcat(a[:], b[:])
}

// parts returns the pieces String joins.
func (r ConfigResource) parts() [6]string {
	var p [6]string
	if !r.Module.IsRoot() {
		p[0], p[1] = string(r.Module), "."
	}
	switch r.Resource.Mode {
	case Data:
		p[2] = "data."
	case Ephemeral:
		p[2] = "ephemeral."
	}
	p[3], p[4], p[5] = r.Resource.Type, ".", r.Resource.Name
	return p
}

// compareConcat compares the concatenations of a and b.
func compareConcat(a, b []string) int {
	var i, j, ii, jj int // piece and byte within it
	for {
		for i < len(a) && ii == len(a[i]) {
			i, ii = i+1, 0
		}
		for j < len(b) && jj == len(b[j]) {
			j, jj = j+1, 0
		}
		switch {
		case i == len(a) && j == len(b):
			return 0
		case i == len(a):
			return -1
		case j == len(b):
			return 1
		}
		if ca, cb := a[i][ii], b[j][jj]; ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
		ii, jj = ii+1, jj+1
	}
}

// Compare is Less as a three-way comparison, for slices.SortFunc.
func (r Resource) Compare(o Resource) int {
	switch {
	case r == o:
		return 0
	case r.Less(o):
		return -1
	}
	return 1
}

// InConfig returns the static configuration address of r.
func (r AbsResource) InConfig() ConfigResource {
	return ConfigResource{Module: r.Module.Module(), Resource: r.Resource}
}

// Compare is Less as a three-way comparison, for slices.SortFunc.
func (r AbsResource) Compare(o AbsResource) int {
	if c := r.Module.Compare(o.Module); c != 0 {
		return c
	}
	return r.Resource.Compare(o.Resource)
}

// ModuleCallInstance is one step of a module instance path: a call name and
// the instance key of that call (NoKey without count or for_each).
type ModuleCallInstance struct {
	Name string
	Key  InstanceKey
}

// String returns the step in user syntax: module.NAME[KEY].
func (c ModuleCallInstance) String() string { return "module." + c.Name + c.Key.String() }

// Child returns the instance of the module that call name with key k, in m, calls.
func (m ModuleInstance) Child(name string, k InstanceKey) ModuleInstance {
	step := ModuleCallInstance{Name: name, Key: k}.String()
	if m.IsRoot() {
		return ModuleInstance(step)
	}
	return ModuleInstance(string(m) + "." + step)
}

// Module returns the static path of m: its call names without keys.
func (m ModuleInstance) Module() Module {
	s := string(m)
	if strings.IndexByte(s, '[') < 0 {
		return Module(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '[' {
			b.WriteByte(s[i])
			continue
		}
		// Skip the key, whose string form may hold brackets and escaped quotes.
		inString := false
		for i++; i < len(s); i++ {
			c := s[i]
			if inString {
				if c == '\\' {
					i++
				} else if c == '"' {
					inString = false
				}
				continue
			}
			if c == '"' {
				inString = true
			} else if c == ']' {
				break
			}
		}
	}
	return Module(b.String())
}

// Steps returns the calls of m from the root, with their keys; nil for the root.
func (m ModuleInstance) Steps() []ModuleCallInstance {
	if m.IsRoot() {
		return nil
	}
	steps := make([]ModuleCallInstance, 0, strings.Count(string(m), "module."))
	for rest := string(m); rest != ""; {
		st, next, ok := nextStep(rest)
		if !ok {
			// A ModuleInstance is built by Child or checked by ParseModuleInstanceStr.
			panic(fmt.Sprintf("invalid module instance %q", string(m)))
		}
		steps = append(steps, st.instance())
		rest = next
	}
	return steps
}

// Parent returns the module instance that calls m and the call instance
// that does; the root returns itself and a zero step.
func (m ModuleInstance) Parent() (ModuleInstance, ModuleCallInstance) {
	if m.IsRoot() {
		return RootModule, ModuleCallInstance{}
	}
	s := string(m)
	for start := 0; ; {
		st, next, ok := nextStep(s[start:])
		if !ok {
			panic(fmt.Sprintf("invalid module instance %q", s))
		}
		if next == "" {
			return ModuleInstance(strings.TrimSuffix(s[:start], ".")), st.instance()
		}
		start = len(s) - len(next)
	}
}

// IsAncestorOf reports whether o is m or a module instance inside m.
func (m ModuleInstance) IsAncestorOf(o ModuleInstance) bool {
	if m.IsRoot() || m == o {
		return true
	}
	return strings.HasPrefix(string(o), string(m)+".")
}

// Compare orders module instances step by step: by call name, then key
// (numbers numerically), the root first.
func (m ModuleInstance) Compare(o ModuleInstance) int {
	if m == o {
		return 0
	}
	if strings.IndexByte(string(m), '[') < 0 && strings.IndexByte(string(o), '[') < 0 {
		// Without keys the step-wise order is the order of the names,
		// "." sorting below every identifier character.
		return strings.Compare(string(m), string(o))
	}
	a, b := string(m), string(o)
	for a != "" && b != "" {
		sa, nextA, okA := nextStep(a)
		sb, nextB, okB := nextStep(b)
		if !okA || !okB {
			panic(fmt.Sprintf("invalid module instance %q or %q", string(m), string(o)))
		}
		if c := sa.compare(sb); c != 0 {
			return c
		}
		a, b = nextA, nextB
	}
	return len(a) - len(b)
}

// ParseModuleInstanceStr parses a module instance path as written in state
// and on the command line: module.a["x"].module.b[0]. "" is the root.
func ParseModuleInstanceStr(s string) (ModuleInstance, error) {
	if s == "" {
		return RootModule, nil
	}
	steps, err := parseModuleSteps(s)
	if err != nil {
		return RootModule, fmt.Errorf("invalid module instance address %q: %w", s, err)
	}
	m := RootModule
	for _, st := range steps {
		m = m.Child(st.Name, st.Key)
	}
	return m, nil
}

func parseModuleSteps(s string) ([]ModuleCallInstance, error) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s", diags[0].Summary)
	}
	var steps []ModuleCallInstance
	for len(trav) > 0 {
		if traverserName(trav[0]) != "module" || len(trav) < 2 {
			return nil, fmt.Errorf("expected module.NAME")
		}
		name := traverserName(trav[1])
		if name == "" {
			return nil, fmt.Errorf("module name required after \"module\"")
		}
		st := ModuleCallInstance{Name: name}
		trav = trav[2:]
		if len(trav) > 0 {
			if idx, ok := trav[0].(hcl.TraverseIndex); ok {
				k, err := keyFromValue(idx.Key)
				if err != nil {
					return nil, err
				}
				st.Key = k
				trav = trav[1:]
			}
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// Unkeyed returns r with the instance keys of its module path dropped: the
// form in which recorded dependencies name a resource (every instance of
// every module instance of it).
func (r AbsResource) Unkeyed() AbsResource {
	return AbsResource{Module: ModuleInstance(r.Module.Module()), Resource: r.Resource}
}
