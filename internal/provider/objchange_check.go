package provider

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/marks"
)

// ValueError is one way a provider's planned or applied object breaks the
// protocol: Msg says what is wrong with the value at Path (empty for the
// object itself). Messages show cty values in Go syntax, except those of
// sensitive attributes, since they are meant for the provider's developers.
type ValueError struct {
	Path cty.Path
	Msg  string
}

// Error returns ".path: message", or the message alone for the object itself.
func (e *ValueError) Error() string {
	if len(e.Path) == 0 {
		return e.Msg
	}
	return diag.FormatRelativePath(e.Path) + ": " + e.Msg
}

// ErrorAt returns err as a sentence about the object named prefix: for a
// ValueError "prefix.path: message", "prefix: message" otherwise.
func ErrorAt(prefix string, err error) string {
	if ve, ok := err.(*ValueError); ok && len(ve.Path) > 0 {
		return prefix + ve.Error()
	}
	return prefix + ": " + err.Error()
}

// AssertPlanValid checks that planned, the object a provider returned from
// PlanResourceChange, is a valid plan for moving from prior to config, as
// OpenTofu checks it. A provider may set an attribute the configuration
// leaves null only if the attribute is computed; it may change a computed-only
// attribute freely; otherwise a planned value must equal the configured one,
// or equal the prior one (the provider's way of saying the two are
// equivalent). Nested blocks must match the configuration's blocks in number
// and keys, and neither a block nor a collection of blocks may be unknown
// itself. Elements of set-nested blocks cannot be correlated and are only
// checked for being known.
//
// prior and config may be null (a create; a delete is never checked);
// sensitivity marks on any value are ignored except to keep marked values out
// of messages. The result is nil when the plan is valid; its errors are
// *ValueError values, in the schema's attribute order (sorted by name).
func AssertPlanValid(schema *Block, prior, config, planned cty.Value) []error {
	var c checker
	ty := schema.ImpliedType()
	prior = c.unmark(orNull(prior, ty))
	config = c.unmark(orNull(config, ty))
	planned = c.unmark(orNull(planned, ty))
	if !c.conforms(planned, ty, "planned object") {
		return c.errs
	}
	if !planned.IsKnown() {
		c.fail(nil, "planned object must not be unknown itself")
		return c.errs
	}
	c.planBlock(schema, prior, config, planned, nil)
	return c.errs
}

// AssertObjectCompatible checks that actual, the object a provider returned
// from ApplyResourceChange, completes planned, the object it planned, as
// OpenTofu checks it: every known planned value must be equal in actual, and
// an unknown one may become any value of its type (within its refinements).
// Sets are compared leniently: every planned element must correlate with some
// actual element and vice versa, and a set may shrink (elements that become
// equal coalesce) but never grow. Blocks planned unknown may expand to any
// number of blocks.
//
// The result is nil when actual is compatible; its errors are *ValueError
// values, in the schema's attribute order (sorted by name).
func AssertObjectCompatible(schema *Block, planned, actual cty.Value) []error {
	var c checker
	ty := schema.ImpliedType()
	planned = c.unmark(orNull(planned, ty))
	actual = c.unmark(orNull(actual, ty))
	if !c.conforms(actual, ty, "new object") {
		return c.errs
	}
	c.compatBlock(schema, planned, actual, nil)
	return c.errs
}

// checker collects the errors of one check and the paths of the values that
// were marked (sensitive) before unmarking, whose values messages must not show.
type checker struct {
	errs   []error
	marked []cty.Path
}

func orNull(v cty.Value, ty cty.Type) cty.Value {
	if v.Type() == cty.NilType {
		return cty.NullVal(ty)
	}
	return v
}

func (c *checker) unmark(v cty.Value) cty.Value {
	if !HasMarks(v) {
		return v // the common case, without copying v
	}
	v, pvms := v.UnmarkDeepWithPaths()
	for _, pvm := range pvms {
		c.marked = append(c.marked, pvm.Path)
	}
	return v
}

func (c *checker) conforms(v cty.Value, ty cty.Type, what string) bool {
	if errs := v.Type().TestConformance(ty); len(errs) > 0 {
		c.fail(nil, fmt.Sprintf("%s has the wrong type: %s", what, convert.MismatchMessage(v.Type(), ty)))
		return false
	}
	return true
}

func (c *checker) fail(path cty.Path, msg string) {
	c.errs = append(c.errs, &ValueError{Path: slices.Clone(path), Msg: msg})
}

// hidden reports whether values at path must stay out of messages: the
// attribute is sensitive, or a marked value lies at, above or below path.
func (c *checker) hidden(path cty.Path, sensitive bool) bool {
	if sensitive {
		return true
	}
	for _, m := range c.marked {
		n := min(len(m), len(path))
		if pathsEqual(m[:n], path[:n]) {
			return true
		}
	}
	return false
}

func pathsEqual(a, b cty.Path) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch as := a[i].(type) {
		case cty.GetAttrStep:
			bs, ok := b[i].(cty.GetAttrStep)
			if !ok || as.Name != bs.Name {
				return false
			}
		case cty.IndexStep:
			bs, ok := b[i].(cty.IndexStep)
			if !ok || !as.Key.RawEquals(bs.Key) {
				return false
			}
		}
	}
	return true
}

func at(path cty.Path, step cty.PathStep) cty.Path {
	return append(slices.Clip(path), step)
}

func attrStep(name string) cty.PathStep { return cty.GetAttrStep{Name: name} }

func keyStep(k cty.Value) cty.PathStep { return cty.IndexStep{Key: k} }

// setStep stands for a set element, which has no key of its own.
var setStep cty.PathStep = cty.IndexStep{Key: cty.DynamicVal}

// sameValue reports whether a and b are the same value, ignoring the
// refinements of unknown values.
func sameValue(a, b cty.Value) bool {
	if a.RawEquals(b) {
		return true
	}
	if a.IsWhollyKnown() && b.IsWhollyKnown() {
		return false
	}
	return unrefined(a).RawEquals(unrefined(b))
}

func unrefined(v cty.Value) cty.Value {
	out, _ := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsKnown() {
			return cty.UnknownVal(v.Type()), nil
		}
		return v, nil
	})
	return out
}

func getAttrOrNull(obj cty.Value, name string, ty cty.Type) cty.Value {
	if obj.IsNull() || !obj.IsKnown() {
		return cty.NullVal(ty)
	}
	return obj.GetAttr(name)
}

func indexOrNull(coll, key cty.Value, ty cty.Type) cty.Value {
	if coll.IsNull() || !coll.IsKnown() {
		return cty.NullVal(ty)
	}
	if has := coll.HasIndex(key); !has.IsKnown() || has.False() {
		return cty.NullVal(ty)
	}
	return coll.Index(key)
}

// --- AssertPlanValid ---

func (c *checker) planBlock(b *Block, prior, config, planned cty.Value, path cty.Path) {
	switch {
	case planned.IsNull() && !config.IsNull():
		c.fail(path, "planned for absence but config wants existence")
		return
	case config.IsNull() && !planned.IsNull():
		c.fail(path, "planned for existence but config wants absence")
		return
	case planned.IsNull():
		return
	}
	ty := b.ImpliedType()
	c.planAttrs(b.Attributes, prior, config, planned, path, false)
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		nb := b.BlockTypes[name]
		p := at(path, attrStep(name))
		plannedV := planned.GetAttr(name)
		configV := config.GetAttr(name)
		priorV := getAttrOrNull(prior, name, ty.AttributeType(name))
		switch {
		case plannedV.RawEquals(configV):
			continue
		case !configV.IsKnown():
			c.fail(p, "planned a value for a dynamic block whose blocks are unknown")
			continue
		case !plannedV.IsKnown():
			c.fail(p, "planned the nested blocks as unknown; set their attributes unknown instead")
			continue
		}
		c.planNestedBlock(nb, priorV, configV, plannedV, p)
	}
}

func (c *checker) planNestedBlock(nb *NestedBlock, prior, config, planned cty.Value, path cty.Path) {
	ety := nb.Block.ImpliedType()
	switch nb.Nesting {
	case NestingSingle, NestingGroup:
		c.planBlock(&nb.Block, prior, config, planned, path)
	case NestingList:
		if planned.IsNull() {
			c.fail(path, "planned null for a list of blocks; no blocks is an empty list")
			return
		}
		configL := 0
		if !config.IsNull() {
			// Configuration never decodes to a null list, but ignore_changes may
			// have copied one from a legacy provider's prior object.
			configL = config.LengthInt()
		}
		if plannedL := planned.LengthInt(); plannedL != configL {
			c.fail(path, fmt.Sprintf("planned %d blocks, but the configuration has %d", plannedL, configL))
			return
		}
		for it := planned.ElementIterator(); it.Next(); {
			idx, plannedE := it.Element()
			p := at(path, keyStep(idx))
			if !plannedE.IsKnown() {
				c.fail(p, "planned the block as unknown; set its attributes unknown instead")
				continue
			}
			c.planBlock(&nb.Block, indexOrNull(prior, idx, ety), config.Index(idx), plannedE, p)
		}
	case NestingMap:
		if planned.IsNull() {
			c.fail(path, "planned null for a map of blocks; no blocks is an empty map")
			return
		}
		plannedM, configM, priorM := valueMap(planned), valueMap(config), valueMap(prior)
		for _, k := range slices.Sorted(maps.Keys(plannedM)) {
			p := at(path, keyStep(cty.StringVal(k)))
			configE, ok := configM[k]
			if !ok {
				c.fail(path, fmt.Sprintf("planned block key %q, which the configuration does not have", k))
				continue
			}
			if !plannedM[k].IsKnown() {
				c.fail(p, "planned the block as unknown; set its attributes unknown instead")
				continue
			}
			priorE, ok := priorM[k]
			if !ok {
				priorE = cty.NullVal(ety)
			}
			c.planBlock(&nb.Block, priorE, configE, plannedM[k], p)
		}
		for _, k := range slices.Sorted(maps.Keys(configM)) {
			if _, ok := plannedM[k]; !ok {
				c.fail(path, fmt.Sprintf("configured block key %q is missing from the plan", k))
			}
		}
	case NestingSet:
		if planned.IsNull() {
			c.fail(path, "planned null for a set of blocks; no blocks is an empty set")
			return
		}
		// Set elements have no identity to correlate planned blocks with
		// configured ones by, so only their being known is checked.
		for it := planned.ElementIterator(); it.Next(); {
			if _, e := it.Element(); !e.IsKnown() {
				c.fail(at(path, setStep), "planned the block as unknown; set its attributes unknown instead")
			}
		}
	}
}

// valueMap returns the elements of a known map or object; nil if it is null.
func valueMap(v cty.Value) map[string]cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	return v.AsValueMap()
}

func (c *checker) planAttrs(attrs map[string]*Attribute, prior, config, planned cty.Value, path cty.Path, sensitive bool) {
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		a := attrs[name]
		ty := a.ImpliedType()
		c.planValue(a, getAttrOrNull(prior, name, ty), config.GetAttr(name), planned.GetAttr(name), at(path, attrStep(name)), sensitive || a.Sensitive)
	}
}

func (c *checker) planValue(a *Attribute, prior, config, planned cty.Value, path cty.Path, sensitive bool) {
	if sameValue(planned, config) {
		return
	}
	if !prior.IsNull() && !config.IsNull() && sameValue(planned, prior) {
		// The provider keeps the prior value as equivalent to the configured one.
		return
	}
	hide := c.hidden(path, sensitive)
	switch {
	case a.Computed && !a.Optional:
		// A computed-only attribute may be planned as anything.
		return
	case config.IsNull() && a.Computed:
		// A default for an optional attribute the configuration leaves unset.
		return
	case config.IsNull() && !planned.IsNull():
		if hide {
			c.fail(path, "planned a sensitive value for a non-computed attribute")
		} else {
			c.fail(path, fmt.Sprintf("planned value %#v for a non-computed attribute", planned))
		}
		return
	}
	if a.NestedType != nil {
		c.planNestedObject(a.NestedType, prior, config, planned, path, sensitive)
		return
	}
	switch {
	case hide && prior.IsNull():
		c.fail(path, "sensitive planned value does not match config value")
	case hide:
		c.fail(path, "sensitive planned value does not match config value nor prior value")
	case prior.IsNull():
		c.fail(path, fmt.Sprintf("planned value %#v does not match config value %#v", planned, config))
	default:
		c.fail(path, fmt.Sprintf("planned value %#v does not match config value %#v nor prior value %#v", planned, config, prior))
	}
}

func (c *checker) planNestedObject(o *NestedObject, prior, config, planned cty.Value, path cty.Path, sensitive bool) {
	switch {
	case planned.IsNull() && !config.IsNull():
		c.fail(path, "planned for absence but config wants existence")
		return
	case config.IsNull() && !planned.IsNull():
		c.fail(path, "planned for existence but config wants absence")
		return
	case !config.IsNull() && !planned.IsKnown():
		c.fail(path, "planned unknown for a configured value")
		return
	case planned.IsNull():
		return
	}
	ety := (&NestedObject{Attributes: o.Attributes, Nesting: NestingSingle}).ImpliedType()
	switch o.Nesting {
	case NestingSingle, NestingGroup:
		c.planAttrs(o.Attributes, prior, config, planned, path, sensitive)
	case NestingList:
		if !config.IsKnown() {
			return
		}
		if plannedL, configL := planned.LengthInt(), config.LengthInt(); plannedL != configL {
			c.fail(path, fmt.Sprintf("planned %d elements, but the configuration has %d", plannedL, configL))
			return
		}
		for it := planned.ElementIterator(); it.Next(); {
			idx, plannedE := it.Element()
			c.planAttrs(o.Attributes, indexOrNull(prior, idx, ety), config.Index(idx), plannedE, at(path, keyStep(idx)), sensitive)
		}
	case NestingMap:
		if !config.IsKnown() {
			return
		}
		plannedM, configM, priorM := valueMap(planned), valueMap(config), valueMap(prior)
		for _, k := range slices.Sorted(maps.Keys(plannedM)) {
			configE, ok := configM[k]
			if !ok {
				c.fail(path, fmt.Sprintf("planned map key %q, which the configuration does not have", k))
				continue
			}
			priorE, ok := priorM[k]
			if !ok {
				priorE = cty.NullVal(ety)
			}
			c.planAttrs(o.Attributes, priorE, configE, plannedM[k], at(path, keyStep(cty.StringVal(k))), sensitive)
		}
		for _, k := range slices.Sorted(maps.Keys(configM)) {
			if _, ok := plannedM[k]; !ok {
				c.fail(path, fmt.Sprintf("configured map key %q is missing from the plan", k))
			}
		}
	case NestingSet:
		// Elements cannot be correlated; only a count the configuration
		// rules out is an error.
		if ok := planned.Length().Range().Includes(config.Length()); ok.IsKnown() && ok.False() {
			c.fail(path, fmt.Sprintf("planned %#v elements, but the configuration has %#v", planned.Length(), config.Length()))
		}
	}
}

// --- AssertObjectCompatible ---

func (c *checker) compatBlock(b *Block, planned, actual cty.Value, path cty.Path) {
	root := ""
	if len(path) == 0 {
		root = "root object "
	}
	switch {
	case planned.IsNull() && !actual.IsNull():
		c.fail(path, root+"was absent, but now present")
		return
	case actual.IsNull() && !planned.IsNull():
		c.fail(path, root+"was present, but now absent")
		return
	case planned.IsNull():
		return
	}
	for _, name := range slices.Sorted(maps.Keys(b.Attributes)) {
		p := at(path, attrStep(name))
		before := len(c.errs)
		c.compatValue(planned.GetAttr(name), actual.GetAttr(name), p)
		if len(c.errs) > before && c.hidden(p, b.Attributes[name].Sensitive) {
			c.errs = append(c.errs[:before], &ValueError{Path: slices.Clone(p), Msg: "inconsistent values for sensitive attribute"})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		c.compatNestedBlock(b.BlockTypes[name], planned.GetAttr(name), actual.GetAttr(name), at(path, attrStep(name)))
	}
}

func (c *checker) compatNestedBlock(nb *NestedBlock, planned, actual cty.Value, path cty.Path) {
	switch nb.Nesting {
	case NestingSingle, NestingGroup:
		if !planned.IsKnown() {
			// An unknown dynamic block may have expanded to any block or none.
			return
		}
		c.compatBlock(&nb.Block, planned, actual, path)
	case NestingList, NestingMap:
		if !planned.IsKnown() || !actual.IsKnown() || planned.IsNull() || actual.IsNull() {
			return
		}
		if plannedL, actualL := planned.LengthInt(), actual.LengthInt(); plannedL != actualL {
			c.fail(path, fmt.Sprintf("block count changed from %d to %d", plannedL, actualL))
			return
		}
		if planned.Type().IsObjectType() {
			// A map of blocks with dynamically-typed attributes is an object.
			plannedM, actualM := valueMap(planned), valueMap(actual)
			for _, k := range slices.Sorted(maps.Keys(plannedM)) {
				p := at(path, keyStep(cty.StringVal(k)))
				actualE, ok := actualM[k]
				if !ok {
					c.fail(p, "block has vanished")
					continue
				}
				c.compatBlock(&nb.Block, plannedM[k], actualE, p)
			}
			for _, k := range slices.Sorted(maps.Keys(actualM)) {
				if _, ok := plannedM[k]; !ok {
					c.fail(at(path, keyStep(cty.StringVal(k))), "new block has appeared")
				}
			}
			return
		}
		for it := planned.ElementIterator(); it.Next(); {
			idx, plannedE := it.Element()
			p := at(path, keyStep(idx))
			if has := actual.HasIndex(idx); !has.IsKnown() || has.False() {
				c.fail(p, "block has vanished")
				continue
			}
			c.compatBlock(&nb.Block, plannedE, actual.Index(idx), p)
		}
	case NestingSet:
		if !planned.IsKnown() || !actual.IsKnown() || planned.IsNull() || actual.IsNull() {
			return
		}
		c.compatSet(planned, actual, path, func(p, a cty.Value) bool {
			var sub checker
			sub.compatBlock(&nb.Block, p, a, nil)
			return len(sub.errs) == 0
		}, "block")
	}
}

// compatValue checks one attribute's value (or a part of it) by its type.
func (c *checker) compatValue(planned, actual cty.Value, path cty.Path) {
	if planned.Type() == cty.DynamicPseudoType {
		return
	}
	if errs := actual.Type().TestConformance(planned.Type()); len(errs) > 0 {
		c.fail(path, "wrong final value type: "+convert.MismatchMessage(actual.Type(), planned.Type()))
		return
	}
	if !planned.IsKnown() {
		if ok := planned.Range().Includes(actual); ok.IsKnown() && ok.False() {
			c.fail(path, fmt.Sprintf("final value %#v does not conform to planning placeholder %#v", actual, planned))
		}
		return
	}
	switch {
	case actual.IsNull() && planned.IsNull():
		return
	case actual.IsNull():
		c.fail(path, fmt.Sprintf("was %#v, but now null", planned))
		return
	case planned.IsNull():
		c.fail(path, fmt.Sprintf("was null, but now %#v", actual))
		return
	case !actual.IsKnown():
		c.fail(path, "was known, but now unknown")
		return
	}
	ty := planned.Type()
	switch {
	case ty.IsPrimitiveType():
		if eq := actual.Equals(planned); !eq.IsKnown() || eq.False() {
			c.fail(path, fmt.Sprintf("was %#v, but now %#v", planned, actual))
		}
	case ty.IsListType() || ty.IsMapType() || ty.IsTupleType():
		for it := planned.ElementIterator(); it.Next(); {
			k, plannedE := it.Element()
			p := at(path, keyStep(k))
			if has := actual.HasIndex(k); !has.IsKnown() || has.False() {
				c.fail(p, "element has vanished")
				continue
			}
			c.compatValue(plannedE, actual.Index(k), p)
		}
		for it := actual.ElementIterator(); it.Next(); {
			if k, _ := it.Element(); !planned.HasIndex(k).True() {
				c.fail(at(path, keyStep(k)), "new element has appeared")
			}
		}
	case ty.IsObjectType():
		for _, name := range slices.Sorted(maps.Keys(ty.AttributeTypes())) {
			c.compatValue(planned.GetAttr(name), actual.GetAttr(name), at(path, attrStep(name)))
		}
	case ty.IsSetType():
		c.compatSet(planned, actual, path, func(p, a cty.Value) bool {
			var sub checker
			sub.compatValue(p, a, nil)
			return len(sub.errs) == 0
		}, "element")
	}
}

// compatSet checks that every planned element correlates with some actual
// element and every actual element with some planned one, by correlates, and
// that the set has not grown.
func (c *checker) compatSet(planned, actual cty.Value, path cty.Path, correlates func(planned, actual cty.Value) bool, what string) {
	ps, as := planned.AsValueSlice(), actual.AsValueSlice()
	pok, aok := make([]bool, len(ps)), make([]bool, len(as))
	for i, pv := range ps {
		for j, av := range as {
			if correlates(pv, av) {
				pok[i], aok[j] = true, true
			}
		}
	}
	hide := c.hidden(path, false)
	for i, ok := range pok {
		if ok {
			continue
		}
		if hide {
			c.fail(path, fmt.Sprintf("a planned %s is missing from the new set", what))
		} else {
			c.fail(path, fmt.Sprintf("planned %s %#v does not correlate with any element in the new set", what, ps[i]))
		}
	}
	for j, ok := range aok {
		if ok {
			continue
		}
		if hide {
			c.fail(path, fmt.Sprintf("the new set has a %s that was not planned", what))
		} else {
			c.fail(path, fmt.Sprintf("new %s %#v does not correlate with any element in the plan", what, as[j]))
		}
	}
	if len(ps) < len(as) {
		c.fail(path, fmt.Sprintf("set length changed from %d to %d", len(ps), len(as)))
	}
}

// HasMarks reports whether v or any value inside it is marked
// (marks.Any).
func HasMarks(v cty.Value) bool { return marks.Any(v) }
