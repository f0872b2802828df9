package marks

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// Mark is a cty value mark rig puts on values.
type Mark string

// Sensitive marks a value whose content must not be shown. Its string
// form is "sensitive", as in OpenTofu and Terraform.
const Sensitive Mark = "sensitive"

// GoString names the mark as Go code does, so that %#v of a marked value
// reads marks.Sensitive.
func (m Mark) GoString() string { return "marks." + strings.ToUpper(string(m[:1])) + string(m[1:]) }

// Redacted is what every human view shows in place of a sensitive value.
const Redacted = "(sensitive value)"

// IsSensitive reports whether m, one mark of a cty.ValueMarks, means
// sensitive: Sensitive itself, or any mark whose string form is
// "sensitive" (tests and other libraries mark with the plain string).
func IsSensitive(m any) bool {
	switch m := m.(type) {
	case Mark:
		return m == Sensitive
	case string:
		return m == string(Sensitive)
	}
	return fmt.Sprint(m) == string(Sensitive)
}

// Has reports whether v itself (not a value nested in it) is sensitive.
func Has(v cty.Value) bool {
	if !v.IsMarked() {
		return false
	}
	for m := range v.Marks() {
		if IsSensitive(m) {
			return true
		}
	}
	return false
}

// Any reports whether v or any value nested in it carries a mark of any
// kind. It answers what cty.Value.ContainsMarked does without building a
// path for every value it visits, and stops at the first mark.
func Any(v cty.Value) bool {
	if v == cty.NilVal {
		return false
	}
	if v.IsMarked() {
		return true
	}
	if v.IsNull() || !v.IsKnown() {
		return false
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if Any(v.GetAttr(name)) {
				return true
			}
		}
	case (ty.IsListType() || ty.IsTupleType()) && v.LengthInt() <= len(indexKeys):
		// By index, with keys made once: an iterator (AsValueSlice's
		// too) makes a number value for each element.
		for i := range v.LengthInt() {
			if Any(v.Index(indexKeys[i])) {
				return true
			}
		}
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		for _, e := range v.AsValueSlice() {
			if Any(e) {
				return true
			}
		}
	case ty.IsMapType():
		for it := v.ElementIterator(); it.Next(); {
			if _, e := it.Element(); Any(e) {
				return true
			}
		}
	}
	return false
}

// indexKeys are the index keys Any looks up the elements of short lists
// and tuples with.
var indexKeys = func() (keys [64]cty.Value) {
	for i := range keys {
		keys[i] = cty.NumberIntVal(int64(i))
	}
	return keys
}()

// Contains reports whether v or any value nested in it is sensitive.
func Contains(v cty.Value) bool {
	if !Any(v) {
		return false
	}
	_, paths := Paths(v)
	return len(paths) > 0
}

// Paths returns v without any marks and the paths of its sensitive parts,
// in the order cty finds them. Marks other than Sensitive are dropped.
func Paths(v cty.Value) (cty.Value, []cty.Path) {
	if !Any(v) {
		return v, nil
	}
	uv, pvms := v.UnmarkDeepWithPaths()
	var paths []cty.Path
	for _, pvm := range pvms {
		for m := range pvm.Marks {
			if IsSensitive(m) {
				paths = append(paths, pvm.Path)
				break
			}
		}
	}
	return uv, paths
}

// MarkPaths returns v with the values at paths marked Sensitive; paths that
// do not lead into v are ignored. A null v is returned as it is.
func MarkPaths(v cty.Value, paths []cty.Path) cty.Value {
	if len(paths) == 0 || v == cty.NilVal || v.IsNull() {
		return v
	}
	pvms := make([]cty.PathValueMarks, len(paths))
	for i, p := range paths {
		pvms[i] = cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(Sensitive)}
	}
	return v.MarkWithPaths(pvms)
}

// Union returns the paths of a and b, each once, sorted (SortPaths).
func Union(a, b []cty.Path) []cty.Path {
	out := make([]cty.Path, 0, len(a)+len(b))
	for _, p := range slices.Concat(a, b) {
		if !slices.ContainsFunc(out, p.Equals) {
			out = append(out, p)
		}
	}
	SortPaths(out)
	return out
}

// SortPaths sorts paths by their rendering in configuration syntax
// (.content, .tags["a"], .rule[0].port), the order Terraform writes a state
// object's sensitive_attributes in. (Terraform 1.11 writes them in cty's
// walk order, which varies from run to run; the set is what counts.)
func SortPaths(paths []cty.Path) {
	if len(paths) < 2 {
		return
	}
	keys := make(map[int]string, len(paths))
	idx := make([]int, len(paths))
	for i, p := range paths {
		idx[i], keys[i] = i, pathKey(p)
	}
	slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	sorted := make([]cty.Path, len(paths))
	for i, j := range idx {
		sorted[i] = paths[j]
	}
	copy(paths, sorted)
}

// pathKey renders a path as Terraform's sort key does: attributes as
// .name, string keys quoted, numbers in their shortest form.
func pathKey(p cty.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			b.WriteByte('[')
			k := s.Key
			switch {
			case k.IsNull():
				b.WriteString("null")
			case !k.IsKnown():
				b.WriteString("(not yet known)")
			case k.Type() == cty.Number:
				b.WriteString(k.AsBigFloat().Text('g', -1))
			case k.Type() == cty.String:
				b.WriteString(strconv.Quote(k.AsString()))
			default:
				b.WriteString("...")
			}
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Secrets returns the text forms of the known strings and numbers of v
// that are sensitive or ephemeral (marked themselves or inside a marked
// value), each once: the texts an error message must not contain.
// Booleans are left out: "true" and "false" give nothing away.
func Secrets(v cty.Value) []string {
	var out []string
	walkSecrets(v, func(text string, _ SecretKind) { out = appendOnce(out, text) })
	return out
}

// walkSecrets calls found with the text form of each known string and
// number of v that is sensitive or ephemeral, and what makes it secret.
func walkSecrets(v cty.Value, found func(text string, kind SecretKind)) {
	if !Any(v) {
		return
	}
	var walk func(v cty.Value, kind SecretKind)
	walk = func(v cty.Value, kind SecretKind) {
		v, ms := v.Unmark()
		for m := range ms {
			// An ephemeral value is as secret as a sensitive one.
			switch {
			case IsSensitive(m):
				kind |= SecretSensitive
			case m == Ephemeral:
				kind |= SecretEphemeral
			}
		}
		if !v.IsKnown() || v.IsNull() {
			return
		}
		ty := v.Type()
		switch {
		case ty == cty.String:
			if kind != 0 {
				found(v.AsString(), kind)
			}
		case ty == cty.Number:
			if kind != 0 {
				found(numberText(v.AsBigFloat()), kind)
			}
		case ty.IsCollectionType() || ty.IsObjectType() || ty.IsTupleType():
			for it := v.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				if ty.IsMapType() {
					walk(k, kind)
				}
				walk(ev, kind)
			}
		}
	}
	walk(v, 0)
}

func numberText(f *big.Float) string { return f.Text('f', -1) }

func appendOnce(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// minBareSecret is the shortest secret replaced wherever it occurs in a
// text; shorter ones are replaced only where they appear quoted, so that a
// one-letter secret does not garble a whole message.
const minBareSecret = 4

// RedactText returns s with every occurrence of the secrets replaced by
// Redacted: quoted ("secret", as %q and strconv.Quote write it) first,
// then bare for those of at least four bytes. Longer secrets are replaced
// before shorter ones, so that one secret inside another leaves no part.
func RedactText(s string, secrets []string) string {
	if len(secrets) == 0 || s == "" {
		return s
	}
	kinds := make(map[string]SecretKind, len(secrets))
	for _, sec := range secrets {
		kinds[sec] = SecretSensitive
	}
	return RedactTextByKind(s, kinds)
}

// RedactTextByKind is RedactText for secrets that say what makes each
// secret: each is replaced by its kind's placeholder (SecretKind.Redacted).
func RedactTextByKind(s string, secrets map[string]SecretKind) string {
	if len(secrets) == 0 || s == "" {
		return s
	}
	sorted := slices.Collect(maps.Keys(secrets))
	slices.SortFunc(sorted, func(a, b string) int {
		if d := len(b) - len(a); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	// Stand-ins no secret contains, one per kind, so that a shorter secret
	// is not looked for inside what replaced a longer one.
	hole := func(k SecretKind) string { return "\x00" + string(rune('0'+k)) + "\x00" }
	changed := false
	for _, sec := range sorted {
		if sec == "" || strings.Contains(sec, "\x00") {
			continue
		}
		h := hole(secrets[sec])
		if q := strconv.Quote(sec); strings.Contains(s, q) {
			s, changed = strings.ReplaceAll(s, q, h), true
		}
		if len(sec) >= minBareSecret && strings.Contains(s, sec) {
			s, changed = strings.ReplaceAll(s, sec, h), true
		}
	}
	if !changed {
		return s
	}
	for _, k := range []SecretKind{SecretSensitive, SecretEphemeral, SecretSensitive | SecretEphemeral} {
		s = strings.ReplaceAll(s, hole(k), k.Redacted())
	}
	return s
}

// SecretKind says what makes a text secret: a sensitive value, an
// ephemeral one, or both.
type SecretKind uint8

// The kinds of secret, combined with |.
const (
	SecretSensitive SecretKind = 1 << iota
	SecretEphemeral
)

// Redacted is what a message shows in place of a secret of kind k, as
// OpenTofu words it: "(sensitive value)", "(ephemeral value)", or for
// both "(ephemeral sensitive value)".
func (k SecretKind) Redacted() string {
	switch k {
	case SecretEphemeral:
		return "(ephemeral value)"
	case SecretEphemeral | SecretSensitive:
		return "(ephemeral sensitive value)"
	}
	return Redacted
}

// AddSecrets adds the secrets of v to secrets with their kinds (a text
// both sensitive and ephemeral, here or in an earlier value, has both).
func AddSecrets(secrets map[string]SecretKind, v cty.Value) {
	walkSecrets(v, func(text string, kind SecretKind) {
		if text != "" {
			secrets[text] |= kind
		}
	})
}
