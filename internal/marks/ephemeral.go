package marks

import "github.com/zclconf/go-cty/cty"

// Ephemeral marks a value that exists only during a run: it comes from an
// ephemeral resource, an ephemeral variable or output, or
// terraform.applying, and is never recorded in state, plans or logs. Its
// string form is "ephemeral", as in OpenTofu and Terraform.
const Ephemeral Mark = "ephemeral"

// IsEphemeral reports whether v itself (not a value nested in it) is
// ephemeral.
func IsEphemeral(v cty.Value) bool { return v.HasMark(Ephemeral) }

// ContainsEphemeral reports whether v or any value nested in it is
// ephemeral.
func ContainsEphemeral(v cty.Value) bool {
	if !Any(v) {
		return false
	}
	_, pvm := v.UnmarkDeepWithPaths()
	for _, p := range pvm {
		if _, ok := p.Marks[Ephemeral]; ok {
			return true
		}
	}
	return false
}

// EphemeralPaths returns the paths of v's ephemeral parts.
func EphemeralPaths(v cty.Value) []cty.Path {
	if !Any(v) {
		return nil
	}
	_, pvm := v.UnmarkDeepWithPaths()
	var out []cty.Path
	for _, p := range pvm {
		if _, ok := p.Marks[Ephemeral]; ok {
			out = append(out, p.Path)
		}
	}
	return out
}

// WithoutEphemeral returns v with every ephemeral part replaced by a null
// of its type (an unknown stays unknown), other marks kept: what
// ephemeralasnull returns.
func WithoutEphemeral(v cty.Value) cty.Value {
	if !ContainsEphemeral(v) {
		return v
	}
	out, _ := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if !v.HasMark(Ephemeral) {
			return v, nil
		}
		_, vm := v.Unmark()
		delete(vm, Ephemeral)
		if v.IsKnown() {
			return cty.NullVal(v.Type()).WithMarks(vm), nil
		}
		return cty.UnknownVal(v.Type()).WithMarks(vm), nil
	})
	return out
}

// MarkEphemeral returns v marked ephemeral.
func MarkEphemeral(v cty.Value) cty.Value { return v.Mark(Ephemeral) }

// WithoutEphemeralPaths returns pvm without its ephemeral marks (a path
// left with no mark is left out): the marks a value keeps when it is no
// longer ephemeral as a whole, or is marked ephemeral only as a whole.
func WithoutEphemeralPaths(pvm []cty.PathValueMarks) []cty.PathValueMarks {
	out := pvm[:0:0]
	for _, m := range pvm {
		if _, ok := m.Marks[Ephemeral]; !ok {
			out = append(out, m)
			continue
		}
		rest := make(cty.ValueMarks)
		for k := range m.Marks {
			if k != Ephemeral {
				rest[k] = struct{}{}
			}
		}
		if len(rest) > 0 {
			out = append(out, cty.PathValueMarks{Path: m.Path, Marks: rest})
		}
	}
	return out
}
