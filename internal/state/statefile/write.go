package statefile

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/ctyjson"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// Marshal returns s as a version-4 state file, byte for byte as OpenTofu
// writes it for the same state (json.MarshalIndent with two spaces, plus a
// trailing newline):
//
//   - top-level keys in the order version, terraform_version, serial,
//     lineage, outputs, resources, check_results; outputs sorted by name;
//     check_results null when s has none.
//   - resources sorted by module path, mode ("data" before "managed", as
//     strings compare), type, name; instances by key (none, then numbers,
//     then strings), each instance's current object before its deposed
//     objects, deposed objects by key.
//   - per resource: module (omitted for the root), mode, type, name, provider
//     (omitted when unset), instances.
//   - per object: index_key (omitted for no key), status (omitted unless
//     tainted), deposed (omitted for the current object), schema_version,
//     attributes, attributes_flat (omitted when empty), sensitive_attributes
//     ([] when none), identity_schema_version and identity (only when
//     recorded), private (base64, omitted when empty), dependencies (in the
//     order given, omitted when empty), create_before_destroy and
//     skip_destroy (each omitted when false), rig_prevent_destroy (omitted
//     when empty).
//   - raw JSON (attributes, sensitive paths, identity, check results, output
//     values and types) is re-indented to its place in the document, and
//     every string is escaped as encoding/json escapes it (<, > and & as
//     \u003c, \u003e, \u0026).
//
// Marshal fails if an object's raw JSON is invalid or an output value cannot
// be encoded (it is unknown, or not a value of its type).
func Marshal(s *state.State) ([]byte, error) {
	e := newEncoder(nil)
	e.buf = make([]byte, 0, estimateSize(s))
	if err := e.state(s); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// AppendLine appends s to dst as one line of JSON: the document Marshal
// produces, without its line breaks and indentation. It is the form of a
// state, or part of one, inside a line-oriented log.
func AppendLine(dst []byte, s *state.State) ([]byte, error) {
	e := &encoder{buf: dst, compact: true}
	start := len(dst)
	if err := e.state(s); err != nil {
		return dst, err
	}
	// Every line break is structural: strings are escaped and raw JSON
	// compacted. Each is followed by indentation alone.
	out, line := e.buf[:start], e.buf[start:]
	for {
		nl := bytes.IndexByte(line, '\n')
		if nl < 0 {
			return append(out, line...), nil
		}
		out = append(out, line[:nl]...)
		line = bytes.TrimLeft(line[nl+1:], " ")
	}
}

// Write writes s to w as Marshal formats it, in pieces of about 64 KiB or
// more, without holding the whole file in memory (a large state is encoded
// on all processors, as by Marshal). A write error stops it; what
// was written before the error stays written.
func Write(w io.Writer, s *state.State) error {
	e := newEncoder(w)
	if err := e.state(s); err != nil {
		return err
	}
	return e.flush()
}

const flushSize = 64 << 10

// Indentation prefixes, by depth in the document.
const (
	indent1 = "\n  "
	indent2 = "\n    "
	indent3 = "\n      "
	indent4 = "\n        "
	indent5 = "\n          "
	indent6 = "\n            "
)

// encoder appends the document to buf, flushing it to w when w is set.
// One encoder writes one state; it is not safe for concurrent use.
type encoder struct {
	buf []byte
	w   io.Writer
	dks []addrs.DeposedKey // reused by resource
	// compact writes raw JSON without white space (see AppendLine).
	compact bool
}

func newEncoder(w io.Writer) *encoder {
	e := &encoder{w: w}
	if w != nil {
		e.buf = make([]byte, 0, flushSize+flushSize/4)
	} else {
		e.buf = make([]byte, 0, 4096)
	}
	return e
}

// estimateSize guesses the length of the file, a little over, so that
// Marshal rarely grows its buffer: indented attributes take about twice
// their compact size, and each object about 250 bytes of keys and
// indentation besides. An eighth more covers attributes that indent to
// more than that (the type descriptions of dynamic values): growing a
// buffer of hundreds of megabytes near its end would copy it into one of
// twice the size; the spare capacity costs far less.
func estimateSize(s *state.State) int {
	n := 4096 + 512*len(s.Outputs)
	for _, r := range s.Resources {
		n += estimateResource(r)
	}
	n += 2 * len(s.CheckResults)
	return n + n/8
}

// estimateResource is estimateSize's guess for one resource.
func estimateResource(r *state.Resource) int {
	n := 300
	for _, inst := range r.Instances {
		n += estimateInstance(inst)
	}
	return n
}

// estimateInstance is estimateSize's guess for the objects of one instance.
func estimateInstance(inst *state.Instance) int {
	n := 0
	obj := func(o *state.Object) {
		n += 300 + 2*len(o.AttrsJSON) + 2*len(o.SensitiveAttributes) + 2*len(o.IdentityJSON) +
			len(o.Private)*4/3 + 60*len(o.Dependencies) + 80*len(o.AttrsFlat)
	}
	if inst.Current != nil {
		obj(inst.Current)
	}
	for _, o := range inst.Deposed {
		obj(o)
	}
	return n
}

func (e *encoder) maybeFlush() error {
	if e.w == nil || len(e.buf) < flushSize {
		return nil
	}
	return e.flush()
}

func (e *encoder) flush() error {
	if e.w == nil || len(e.buf) == 0 {
		return nil
	}
	_, err := e.w.Write(e.buf)
	e.buf = e.buf[:0]
	if err != nil {
		return fmt.Errorf("writing state: %w", err)
	}
	return nil
}

func (e *encoder) state(s *state.State) error {
	e.buf = append(e.buf, "{"+indent1+`"version": 4,`+indent1+`"terraform_version": `...)
	e.buf = appendString(e.buf, s.TerraformVersion)
	e.buf = append(e.buf, ","+indent1+`"serial": `...)
	e.buf = strconv.AppendUint(e.buf, s.Serial, 10)
	e.buf = append(e.buf, ","+indent1+`"lineage": `...)
	e.buf = appendString(e.buf, s.Lineage)
	e.buf = append(e.buf, ","+indent1+`"outputs": `...)
	if err := e.outputs(s.Outputs); err != nil {
		return err
	}
	e.buf = append(e.buf, ","+indent1+`"resources": `...)
	if err := e.resources(s.Resources); err != nil {
		return err
	}
	e.buf = append(e.buf, ","+indent1+`"check_results": `...)
	if s.CheckResults == nil {
		e.buf = append(e.buf, "null"...)
	} else if err := e.raw(s.CheckResults, indent1[1:]); err != nil {
		return fmt.Errorf("encoding check results: %w", err)
	}
	e.buf = append(e.buf, "\n}\n"...)
	return nil
}

func (e *encoder) outputs(outs map[string]state.OutputValue) error {
	if len(outs) == 0 {
		e.buf = append(e.buf, "{}"...)
		return nil
	}
	names := make([]string, 0, len(outs))
	for name := range outs {
		names = append(names, name)
	}
	slices.Sort(names)
	e.buf = append(e.buf, '{')
	for i, name := range names {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.output(name, outs[name]); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, indent1+"}"...)
	return nil
}

func (e *encoder) output(name string, o state.OutputValue) error {
	v, _ := o.Value.UnmarkDeep()
	ty := v.Type()
	if v == cty.NilVal {
		ty = cty.DynamicPseudoType
		v = cty.NullVal(ty)
	}
	val, err := ctyjson.Marshal(v, ty)
	if err != nil {
		return fmt.Errorf("encoding output %q: %w", name, err)
	}
	typ, err := ctyjson.MarshalType(ty)
	if err != nil {
		return fmt.Errorf("encoding the type of output %q: %w", name, err)
	}
	e.buf = append(e.buf, indent2...)
	e.buf = appendString(e.buf, name)
	e.buf = append(e.buf, ": {"+indent3+`"value": `...)
	if err := e.raw(val, indent3[1:]); err != nil {
		return fmt.Errorf("encoding output %q: %w", name, err)
	}
	e.buf = append(e.buf, ","+indent3+`"type": `...)
	if err := e.raw(typ, indent3[1:]); err != nil {
		return fmt.Errorf("encoding the type of output %q: %w", name, err)
	}
	if o.Sensitive {
		e.buf = append(e.buf, ","+indent3+`"sensitive": true`...)
	}
	e.buf = append(e.buf, indent2+"}"...)
	return nil
}

// modeString is the mode as the file spells it; resources sort by it.
func modeString(m addrs.ResourceMode) (string, error) {
	switch m {
	case addrs.Managed:
		return "managed", nil
	case addrs.Data:
		return "data", nil
	}
	return "", fmt.Errorf("invalid resource mode %d", m)
}

// compareResources orders resources as OpenTofu's file writer does.
func compareResources(a, b *state.Resource) int {
	ma, _ := modeString(a.Addr.Resource.Mode)
	mb, _ := modeString(b.Addr.Resource.Mode)
	return cmp.Or(
		cmp.Compare(a.Addr.Module, b.Addr.Module),
		cmp.Compare(ma, mb),
		cmp.Compare(a.Addr.Resource.Type, b.Addr.Resource.Type),
		cmp.Compare(a.Addr.Resource.Name, b.Addr.Resource.Name),
	)
}

func (e *encoder) resources(rs map[addrs.AbsResource]*state.Resource) error {
	if len(rs) == 0 {
		e.buf = append(e.buf, "[]"...)
		return nil
	}
	sorted := make([]*state.Resource, 0, len(rs))
	for _, r := range rs {
		sorted = append(sorted, r)
	}
	slices.SortFunc(sorted, compareResources)
	e.buf = append(e.buf, '[')
	if len(sorted) > 1 && (instanceCount(sorted) >= parallelInstances || largerThan(sorted, parallelBytes)) || len(sorted) == 1 && instanceCount(sorted) >= 2*runInstances {
		if err := e.resourcesParallel(sorted); err != nil {
			return err
		}
	} else {
		for i, r := range sorted {
			if err := e.resource(segment{r: r, keys: objectKeys(r, nil), head: true, tail: true, comma: i > 0}); err != nil {
				return err
			}
		}
	}
	e.buf = append(e.buf, indent1+"]"...)
	return nil
}

// parallelInstances is the number of resource instances from which Marshal
// encodes the resources on all processors.
const parallelInstances = 2048

// parallelBytes is the estimated size of a document (estimateInstance)
// from which Marshal encodes the resources on all processors, however few
// instances it has: objects that record hundreds of dependencies take tens
// of kilobytes each.
const parallelBytes = 2 << 20

// largerThan reports whether the objects of rs take more than limit bytes
// of document, by estimateInstance.
func largerThan(rs []*state.Resource, limit int) bool {
	n := 0
	for _, r := range rs {
		for _, inst := range r.Instances {
			if n += estimateInstance(inst); n > limit {
				return true
			}
		}
	}
	return false
}

// runInstances is how many instances one piece of a parallel encoding
// holds at most: several resources, or part of one.
const runInstances = 256

// runBytes is about how large a piece of a parallel encoding grows, by
// estimateInstance, before it is cut: objects that record hundreds of
// dependencies take tens of kilobytes each, and pieces of 256 of them
// would be buffers of megabytes grown by copying.
const runBytes = 1 << 20

func instanceCount(rs []*state.Resource) int {
	n := 0
	for _, r := range rs {
		n += len(r.Instances)
	}
	return n
}

// segment is the part of a resource one piece of the document holds: the
// objects of some of its instances (keys, sorted), with the resource's
// opening (head) and closing (tail) when it holds them; comma says that a
// resource comes before it in the document.
type segment struct {
	r          *state.Resource
	keys       []addrs.InstanceKey
	head, tail bool
	comma      bool
}

// objectKeys appends to dst the keys of r's instances that have objects,
// sorted, and returns the result.
func objectKeys(r *state.Resource, dst []addrs.InstanceKey) []addrs.InstanceKey {
	start := len(dst)
	for k, inst := range r.Instances {
		if inst.HasObjects() {
			dst = append(dst, k)
		}
	}
	slices.SortFunc(dst[start:], addrs.InstanceKey.Compare)
	return dst
}

// resourcesParallel encodes sorted in runs of at most runInstances
// instances and about runBytes (a resource with more is cut into several),
// a window of runs at a time on all processors, appending each window's
// runs in order (and flushing them, when writing), so that the memory it
// needs beyond the document is a window's, whatever the size of one
// resource.
func (e *encoder) resourcesParallel(sorted []*state.Resource) error {
	var runs [][]segment
	var sizes []int // each run's estimated size
	var run []segment
	n, size := 0, 0
	for i, r := range sorted {
		keys := objectKeys(r, nil)
		for from := 0; ; {
			// A segment grows to the end of its resource or of the run:
			// runInstances instances or about runBytes of document.
			to := from
			for to < len(keys) && n+to-from < runInstances && size < runBytes {
				size += estimateInstance(r.Instances[keys[to]])
				to++
			}
			run = append(run, segment{r: r, keys: keys[from:to], head: from == 0, tail: to == len(keys), comma: i > 0 && from == 0})
			if n += to - from; n >= runInstances || size >= runBytes {
				runs, sizes, run, n, size = append(runs, run), append(sizes, size), nil, 0, 0
			}
			if to == len(keys) {
				break
			}
			from = to
		}
	}
	if len(run) > 0 {
		runs, sizes = append(runs, run), append(sizes, size)
	}

	workers := runtime.GOMAXPROCS(0)
	parts := make([]*encoder, 2*workers)
	for i := range parts {
		parts[i] = newEncoder(nil)
		parts[i].compact = e.compact
	}
	errs := make([]error, len(parts))
	for first := 0; first < len(runs); first += len(parts) {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < len(parts); i += workers {
					p := parts[i]
					p.buf, errs[i] = p.buf[:0], nil
					if first+i >= len(runs) {
						continue
					}
					// Grown once to what the run is estimated to take,
					// rather than by doubling as it is encoded.
					p.buf = slices.Grow(p.buf, sizes[first+i])
					for _, seg := range runs[first+i] {
						if errs[i] = p.resource(seg); errs[i] != nil {
							break
						}
					}
				}
			})
		}
		wg.Wait()
		for i, p := range parts {
			if errs[i] != nil {
				return errs[i]
			}
			if e.w != nil && len(p.buf) >= flushSize {
				// A large part goes to w as it is, rather than through a
				// copy in e.buf, which would grow to a window's size.
				if err := e.flush(); err != nil {
					return err
				}
				if _, err := e.w.Write(p.buf); err != nil {
					return fmt.Errorf("writing state: %w", err)
				}
				continue
			}
			e.buf = append(e.buf, p.buf...)
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// resource appends a segment of one resource: its opening, the objects of
// its instances seg.keys, and its closing, as seg says.
func (e *encoder) resource(seg segment) error {
	r := seg.r
	perInstance := r.HasProviderKeys()
	if seg.comma {
		e.buf = append(e.buf, ',')
	}
	if seg.head {
		mode, err := modeString(r.Addr.Resource.Mode)
		if err != nil {
			return fmt.Errorf("encoding resource %s: %w", r.Addr, err)
		}
		e.buf = append(e.buf, indent2+"{"...)
		if !r.Addr.Module.IsRoot() {
			e.buf = append(e.buf, indent3+`"module": `...)
			e.buf = appendString(e.buf, string(r.Addr.Module))
			e.buf = append(e.buf, ',')
		}
		e.buf = append(e.buf, indent3+`"mode": "`...)
		e.buf = append(e.buf, mode...)
		e.buf = append(e.buf, `",`+indent3+`"type": `...)
		e.buf = appendString(e.buf, r.Addr.Resource.Type)
		e.buf = append(e.buf, ","+indent3+`"name": `...)
		e.buf = appendString(e.buf, r.Addr.Resource.Name)
		if !r.ProviderConfig.Provider.IsZero() && !perInstance {
			e.buf = append(e.buf, ","+indent3+`"provider": `...)
			e.buf = appendString(e.buf, r.ProviderConfig.String())
		}
		e.buf = append(e.buf, ","+indent3+`"instances": `...)
		if seg.tail && len(seg.keys) == 0 {
			e.buf = append(e.buf, "[]"+indent2+"}"...)
			return nil
		}
		e.buf = append(e.buf, '[')
	}
	first := seg.head
	for _, k := range seg.keys {
		inst := r.Instances[k]
		if inst.Current != nil {
			if err := e.object(r, k, addrs.NotDeposed, inst.Current, first, perInstance); err != nil {
				return err
			}
			if err := e.maybeFlush(); err != nil {
				return err
			}
			first = false
		}
		e.dks = e.dks[:0]
		for dk := range inst.Deposed {
			e.dks = append(e.dks, dk)
		}
		slices.Sort(e.dks)
		for _, dk := range e.dks {
			if err := e.object(r, k, dk, inst.Deposed[dk], first, perInstance); err != nil {
				return err
			}
			if err := e.maybeFlush(); err != nil {
				return err
			}
			first = false
		}
	}
	if seg.tail {
		e.buf = append(e.buf, indent3+"]"+indent2+"}"...)
	}
	return nil
}

// object appends one object of r; perInstance records its provider
// configuration instance with it, as OpenTofu does when an instance of r
// has a provider instance key.
func (e *encoder) object(r *state.Resource, k addrs.InstanceKey, dk addrs.DeposedKey, o *state.Object, first, perInstance bool) error {
	if o == nil {
		return nil
	}
	if !first {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, indent4+"{"...)
	switch {
	case k.IsInt():
		e.buf = append(e.buf, indent5+`"index_key": `...)
		e.buf = strconv.AppendInt(e.buf, int64(k.Int()), 10)
		e.buf = append(e.buf, ',')
	case k.IsString():
		e.buf = append(e.buf, indent5+`"index_key": `...)
		e.buf = appendString(e.buf, k.Str())
		e.buf = append(e.buf, ',')
	}
	if o.Status == state.Tainted {
		e.buf = append(e.buf, indent5+`"status": "tainted",`...)
	}
	if dk != addrs.NotDeposed {
		e.buf = append(e.buf, indent5+`"deposed": `...)
		e.buf = appendString(e.buf, string(dk))
		e.buf = append(e.buf, ',')
	}
	if perInstance {
		e.buf = append(e.buf, indent5+`"provider": `...)
		e.buf = appendString(e.buf, r.InstanceProvider(k).String())
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, indent5+`"schema_version": `...)
	e.buf = strconv.AppendUint(e.buf, o.SchemaVersion, 10)
	if len(o.AttrsJSON) > 0 {
		e.buf = append(e.buf, ","+indent5+`"attributes": `...)
		if err := e.raw(o.AttrsJSON, indent5[1:]); err != nil {
			return objectError(r, k, dk, "attributes", err)
		}
	}
	if len(o.AttrsFlat) > 0 {
		e.buf = append(e.buf, ","+indent5+`"attributes_flat": {`...)
		names := make([]string, 0, len(o.AttrsFlat))
		for n := range o.AttrsFlat {
			names = append(names, n)
		}
		slices.Sort(names)
		for i, n := range names {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = append(e.buf, indent6...)
			e.buf = appendString(e.buf, n)
			e.buf = append(e.buf, ": "...)
			e.buf = appendString(e.buf, o.AttrsFlat[n])
		}
		e.buf = append(e.buf, indent5+"}"...)
	}
	e.buf = append(e.buf, ","+indent5+`"sensitive_attributes": `...)
	if len(o.SensitiveAttributes) == 0 {
		e.buf = append(e.buf, "[]"...)
	} else if err := e.raw(o.SensitiveAttributes, indent5[1:]); err != nil {
		return objectError(r, k, dk, "sensitive_attributes", err)
	}
	if o.IdentitySchemaVersion != nil {
		e.buf = append(e.buf, ","+indent5+`"identity_schema_version": `...)
		e.buf = strconv.AppendUint(e.buf, *o.IdentitySchemaVersion, 10)
	}
	if len(o.IdentityJSON) > 0 {
		e.buf = append(e.buf, ","+indent5+`"identity": `...)
		if err := e.raw(o.IdentityJSON, indent5[1:]); err != nil {
			return objectError(r, k, dk, "identity", err)
		}
	}
	if len(o.Private) > 0 {
		e.buf = append(e.buf, ","+indent5+`"private": "`...)
		e.buf = base64.StdEncoding.AppendEncode(e.buf, o.Private)
		e.buf = append(e.buf, '"')
	}
	if len(o.Dependencies) > 0 {
		e.buf = append(e.buf, ","+indent5+`"dependencies": [`...)
		// A line (compact) has no line breaks: those of its hundreds of
		// dependencies are not written to be taken out again.
		sep, end := ","+indent6, indent5+"]"
		if e.compact {
			sep, end = ",", "]"
		} else {
			e.buf = append(e.buf, indent6...)
		}
		var known plainGroup
		for i, dep := range o.Dependencies {
			if i > 0 {
				e.buf = append(e.buf, sep...)
			}
			e.buf = known.appendDependency(e.buf, dep)
		}
		e.buf = append(e.buf, end...)
	}
	if o.CreateBeforeDestroy {
		e.buf = append(e.buf, ","+indent5+`"create_before_destroy": true`...)
	}
	if o.SkipDestroy {
		e.buf = append(e.buf, ","+indent5+`"skip_destroy": true`...)
	}
	if o.PreventDestroy != "" {
		e.buf = append(e.buf, ","+indent5+`"rig_prevent_destroy": `...)
		e.buf = appendString(e.buf, o.PreventDestroy)
	}
	e.buf = append(e.buf, indent4+"}"...)
	return nil
}

func objectError(r *state.Resource, k addrs.InstanceKey, dk addrs.DeposedKey, field string, err error) error {
	addr := addrs.ObjectAddr{Instance: r.Addr.Instance(k), Deposed: dk}
	return fmt.Errorf("encoding %s: %s: %w", addr, field, err)
}

// appendDependency appends dep as appendString(dst, dep.String()) would,
// without building the string: a large state records millions of
// dependencies.
func appendDependency(dst []byte, dep addrs.AbsResource) []byte {
	if !plainJSON(string(dep.Module)) || !plainJSON(dep.Resource.Type) || !plainJSON(dep.Resource.Name) {
		return appendString(dst, dep.String())
	}
	return appendPlainDependency(dst, dep)
}

// appendPlainDependency appends dep, whose parts plainJSON accepts, quoted.
func appendPlainDependency(dst []byte, dep addrs.AbsResource) []byte {
	mod, typ, name := string(dep.Module), dep.Resource.Type, dep.Resource.Name
	dst = append(dst, '"')
	if !dep.Module.IsRoot() {
		dst = append(dst, mod...)
		dst = append(dst, '.')
	}
	switch dep.Resource.Mode {
	case addrs.Data:
		dst = append(dst, "data."...)
	case addrs.Ephemeral:
		dst = append(dst, "ephemeral."...)
	}
	dst = append(dst, typ...)
	dst = append(dst, '.')
	dst = append(dst, name...)
	return append(dst, '"')
}

// plainGroup remembers the module and type of the last dependency
// appendDependency found plain: a list's entries mostly share them (the
// same strings), and only their names are checked again.
type plainGroup struct {
	module addrs.ModuleInstance
	typ    string
	set    bool
}

// appendDependency is appendDependency(dst, dep), checking dep's module and
// type only when they are not those of the last plain dependency.
func (g *plainGroup) appendDependency(dst []byte, dep addrs.AbsResource) []byte {
	if !g.set || dep.Resource.Type != g.typ || dep.Module != g.module {
		if !plainJSON(string(dep.Module)) || !plainJSON(dep.Resource.Type) {
			return appendString(dst, dep.String())
		}
		g.module, g.typ, g.set = dep.Module, dep.Resource.Type, true
	}
	if !plainJSON(dep.Resource.Name) {
		return appendString(dst, dep.String())
	}
	return appendPlainDependency(dst, dep)
}

// plainJSON reports whether s is printable ASCII that appendString writes
// as it is.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return true
}

// plainByte marks the bytes plainJSON accepts: one lookup a byte, where
// most of a large state's bytes are the dependencies' addresses.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// raw appends the JSON value src indented as json.MarshalIndent would place
// it after a key at the line prefix pre, with encoding/json's HTML-safe
// escaping applied as json.Marshal applies it to a json.RawMessage.
func (e *encoder) raw(src []byte, pre string) error {
	var buf []byte
	var err error
	if e.compact {
		buf, err = appendCompactHTMLSafe(e.buf, src)
	} else {
		buf, err = appendIndentHTMLSafe(e.buf, bytes.TrimRight(src, " \t\r\n"), pre)
	}
	if err != nil {
		return err
	}
	e.buf = buf
	return nil
}
