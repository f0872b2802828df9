package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// RenderState writes the human-readable state as `tofu show` prints it:
// each object as a "# address:" comment and its resource block, then the
// root outputs. schemas may be nil.
func RenderState(w io.Writer, s *state.State, schemas SchemaSource, opts RenderOptions) error {
	if s == nil || s.Empty() {
		_, err := io.WriteString(w, "The state file is empty. No resources are represented.\n")
		return err
	}
	o := stateOpts(opts)
	var b strings.Builder
	first := true
	prevModule := addrs.RootModule
	for _, obj := range stateObjects(s) {
		mod := obj.Instance.Module
		if mod != prevModule && !first {
			b.WriteString("\n")
		}
		prevModule = mod
		if !first {
			b.WriteString("\n")
		}
		first = false
		text, err := renderStateObject(s, obj, schemas, o)
		if err != nil {
			return err
		}
		b.WriteString(text + "\n")
	}
	if len(s.Outputs) > 0 {
		b.WriteString("\n\nOutputs:\n\n")
		for _, name := range slices.Sorted(maps.Keys(s.Outputs)) {
			ov := s.Outputs[name]
			d := &differ{before: pathSet{}, after: pathSet{}}
			v := orNull(unmarkInto(ov.Value, d.before))
			if ov.Sensitive {
				d.before.add(nil)
			}
			d.after = d.before
			n := d.attr(side{v: v}, side{v: v}, v.Type())
			b.WriteString(name)
			b.WriteString(" = ")
			n.render(&b, 0, o)
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RenderStateInstance writes one resource instance's current object as
// `tofu state show ADDR` prints it. It fails when the state has no current
// object at addr.
func RenderStateInstance(w io.Writer, s *state.State, addr addrs.AbsResourceInstance, schemas SchemaSource, opts RenderOptions) error {
	obj := addrs.ObjectAddr{Instance: addr}
	if s == nil || s.Object(obj) == nil {
		return fmt.Errorf("no current object for %s in state", addr)
	}
	text, err := renderStateObject(s, obj, schemas, stateOpts(opts))
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, text+"\n")
	return err
}

func stateOpts(opts RenderOptions) ropts {
	o := opts.ropts()
	o.showUnchanged, o.hideSymbols = true, true
	return o
}

func renderStateObject(s *state.State, addr addrs.ObjectAddr, schemas SchemaSource, o ropts) (string, error) {
	r := s.Resource(addr.Instance.ContainingResource())
	obj := s.Object(addr)
	v, blk, set, err := decodeObject(r, obj, schemas)
	if err != nil {
		return "", fmt.Errorf("show %s: %w", addr, err)
	}
	var b strings.Builder
	switch {
	case addr.Deposed != addrs.NotDeposed:
		fmt.Fprintf(&b, "# %s: (deposed object %s)\n", addr.Instance, addr.Deposed)
	case obj.Status == state.Tainted:
		fmt.Fprintf(&b, "# %s: (tainted)\n", addr.Instance)
	default:
		fmt.Fprintf(&b, "# %s:\n", addr.Instance)
	}
	d := &differ{before: set, after: set}
	n := d.block(side{v: v}, side{v: v}, blk)
	mode := "resource"
	if r.Addr.Resource.Mode == addrs.Data {
		mode = "data"
	}
	fmt.Fprintf(&b, "%s %q %q ", mode, r.Addr.Resource.Type, r.Addr.Resource.Name)
	n.render(&b, 0, o)
	return b.String(), nil
}

// decodeObject decodes a state object's attributes with its resource
// type's schema, or by the shape of its JSON when the schema is unknown,
// and collects its sensitive paths.
func decodeObject(r *state.Resource, obj *state.Object, schemas SchemaSource) (cty.Value, *provider.Block, pathSet, error) {
	set := pathSet{}
	blk := lookupBlock(schemas, r.ProviderConfig.Provider, r.Addr.Resource)
	var v cty.Value
	switch {
	case obj.AttrsJSON == nil:
		v = cty.EmptyObjectVal
	case blk != nil:
		var err error
		if v, err = obj.Decode(blk.ImpliedType()); err != nil {
			return cty.NilVal, nil, nil, err
		}
	default:
		var err error
		if v, err = decodeWithoutSchema(obj.AttrsJSON); err != nil {
			return cty.NilVal, nil, nil, err
		}
	}
	if blk == nil {
		blk = fallbackBlock(v)
	}
	recorded, err := state.ParseSensitivePaths(obj.SensitiveAttributes)
	if err != nil {
		return cty.NilVal, nil, nil, err
	}
	for _, p := range plan.EchoedPaths(r.ProviderConfig.Provider, r.Addr.Resource.Type, recorded) {
		set.add(p)
	}
	addSchemaSensitive(blk, v, nil, set)
	return v, blk, set, nil
}

// RenderOutputs writes root output values as `tofu output` lists them:
// "name = value", sorted, sensitive values hidden (unless
// opts.ShowSensitive).
func RenderOutputs(w io.Writer, outputs map[string]state.OutputValue, opts RenderOptions) error {
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(outputs)) {
		ov := outputs[name]
		if ov.Sensitive && !opts.ShowSensitive {
			lines = append(lines, name+" = <sensitive>")
			continue
		}
		lines = append(lines, name+" = "+opts.FormatValue(ov.Value, 0))
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

// RenderApplyOutputs writes the "Outputs:" section that follows a
// successful apply; nothing when there are no outputs.
func RenderApplyOutputs(w io.Writer, outputs map[string]state.OutputValue, opts RenderOptions) error {
	if len(outputs) == 0 {
		return nil
	}
	if _, err := io.WriteString(w, colorize("[reset][bold][green]\nOutputs:\n\n", opts.Color)); err != nil {
		return err
	}
	return RenderOutputs(w, outputs, opts)
}

// FormatValue formats a value in the language's syntax, with type
// conversion calls where the type would otherwise be ambiguous, as
// `tofu output NAME` and `tofu console` print values. indent is the column
// the value starts at, for nested lines. At any depth, an unknown value is
// written "(known after apply)", a sensitive one "(sensitive value)" and
// an ephemeral one "(ephemeral value)", in that order, as OpenTofu does.
func FormatValue(v cty.Value, indent int) string {
	return RenderOptions{}.FormatValue(v, indent)
}

// FormatValue is the package's FormatValue, which shows sensitive values
// when o.ShowSensitive is set.
func (o RenderOptions) FormatValue(v cty.Value, indent int) string {
	var b strings.Builder
	vw := valueWriter{b: &b, show: o.ShowSensitive}
	vw.write(v, indent)
	return b.String()
}

// valueWriter writes FormatValue's rendering of a value into b; nested
// values are written into the same builder, so a deep value costs its
// size. show says whether sensitive values are shown.
type valueWriter struct {
	b    *strings.Builder
	show bool
}

func (w valueWriter) write(v cty.Value, indent int) {
	b := w.b
	v, ms := v.Unmark()
	if !v.IsKnown() {
		b.WriteString("(known after apply)")
		return
	}
	for m := range ms {
		if marks.IsSensitive(m) && !w.show {
			b.WriteString(marks.Redacted)
			return
		}
	}
	if _, ok := ms[marks.Ephemeral]; ok {
		b.WriteString("(ephemeral value)")
		return
	}
	ty := v.Type()
	if v.IsNull() {
		switch {
		case ty == cty.DynamicPseudoType:
			b.WriteString("null")
		case ty == cty.String:
			b.WriteString("tostring(null)")
		case ty == cty.Number:
			b.WriteString("tonumber(null)")
		case ty == cty.Bool:
			b.WriteString("tobool(null)")
		case ty.IsListType():
			fmt.Fprintf(b, "tolist(null) /* of %s */", ty.ElementType().FriendlyName())
		case ty.IsSetType():
			fmt.Fprintf(b, "toset(null) /* of %s */", ty.ElementType().FriendlyName())
		case ty.IsMapType():
			fmt.Fprintf(b, "tomap(null) /* of %s */", ty.ElementType().FriendlyName())
		default:
			fmt.Fprintf(b, "null /* %s */", ty.FriendlyName())
		}
		return
	}
	switch {
	case ty == cty.String:
		if !writeHeredoc(b, v.AsString(), indent) {
			b.WriteString(strconv.Quote(v.AsString()))
		}
	case ty == cty.Number:
		b.WriteString(numberString(v))
	case ty == cty.Bool:
		b.WriteString(strconv.FormatBool(v.True()))
	case ty.IsObjectType():
		w.writeMapping(v, indent)
	case ty.IsTupleType():
		w.writeSequence(v, indent)
	case ty.IsListType():
		b.WriteString("tolist(")
		w.writeSequence(v, indent)
		b.WriteString(")")
	case ty.IsSetType():
		b.WriteString("toset(")
		w.writeSequence(v, indent)
		b.WriteString(")")
	case ty.IsMapType():
		b.WriteString("tomap(")
		w.writeMapping(v, indent)
		b.WriteString(")")
	default:
		b.WriteString(v.GoString())
	}
}

// writeNewline writes a newline and the spaces that start the next line.
func writeNewline(b *strings.Builder, indent int) {
	b.WriteByte('\n')
	for indent > len(padding) {
		b.WriteString(padding)
		indent -= len(padding)
	}
	b.WriteString(padding[:indent])
}

// writeHeredoc writes a multi-line string as a heredoc; false, having
// written nothing, for a single line.
func writeHeredoc(b *strings.Builder, s string, indent int) bool {
	lines := strings.Split(s, "\n")
	if len(lines) < 2 {
		return false
	}
	op := "<<"
	if indent > 0 {
		op = "<<-"
	}
	delim := "EOT"
	for slices.ContainsFunc(lines, func(l string) bool { return strings.TrimSpace(l) == delim }) {
		delim += "_"
	}
	b.WriteString(op)
	b.WriteString(delim)
	for _, l := range lines {
		writeNewline(b, indent)
		b.WriteString(l)
	}
	writeNewline(b, indent)
	b.WriteString(delim)
	return true
}

func (w valueWriter) writeMapping(v cty.Value, indent int) {
	b := w.b
	b.WriteByte('{')
	n := 0
	for it := v.ElementIterator(); it.Next(); n++ {
		k, ev := it.Element()
		writeNewline(b, indent+2)
		w.write(k, indent+2)
		b.WriteString(" = ")
		w.write(ev, indent+2)
	}
	if n > 0 {
		writeNewline(b, indent)
	}
	b.WriteByte('}')
}

func (w valueWriter) writeSequence(v cty.Value, indent int) {
	b := w.b
	b.WriteByte('[')
	n := 0
	for it := v.ElementIterator(); it.Next(); n++ {
		_, ev := it.Element()
		writeNewline(b, indent+2)
		w.write(ev, indent+2)
		b.WriteByte(',')
	}
	if n > 0 {
		writeNewline(b, indent)
	}
	b.WriteByte(']')
}

// decodeWithoutSchema decodes an attributes object by the shape of its
// JSON. An attribute of the form {"value": …, "type": …} is how a
// dynamically-typed attribute is stored; it is decoded with its type.
func decodeWithoutSchema(raw []byte) (cty.Value, error) {
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil {
		return cty.NilVal, fmt.Errorf("decoding attributes: %w", err)
	}
	vals := make(map[string]cty.Value, len(attrs))
	for name, a := range attrs {
		var wrapped map[string]json.RawMessage
		if json.Unmarshal(a, &wrapped) == nil && len(wrapped) == 2 && wrapped["type"] != nil && wrapped["value"] != nil {
			if ty, err := ctyjson.UnmarshalType(wrapped["type"]); err == nil {
				if v, err := ctyjson.Unmarshal(wrapped["value"], ty); err == nil {
					vals[name] = v
					continue
				}
			}
		}
		ty, err := ctyjson.ImpliedType(a)
		if err != nil {
			return cty.NilVal, fmt.Errorf("decoding attribute %q: %w", name, err)
		}
		if vals[name], err = ctyjson.Unmarshal(a, ty); err != nil {
			return cty.NilVal, fmt.Errorf("decoding attribute %q: %w", name, err)
		}
	}
	return cty.ObjectVal(vals), nil
}

// RawString is the text `output -raw` prints of v: a string as it is, a
// number or a bool written out; any other value, null or unknown is an
// error.
func RawString(v cty.Value) (string, error) {
	if v.IsNull() || !v.IsKnown() {
		return "", fmt.Errorf("the value is null or unknown")
	}
	switch v.Type() {
	case cty.String:
		return v.AsString(), nil
	case cty.Number:
		return v.AsBigFloat().Text('f', -1), nil
	case cty.Bool:
		if v.True() {
			return "true", nil
		}
		return "false", nil
	}
	return "", fmt.Errorf("the -raw option only supports strings, numbers, and boolean values, but the output value is %s; use -json for complex values", v.Type().FriendlyName())
}
