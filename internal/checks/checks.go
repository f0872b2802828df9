// Package checks records the results of a configuration's conditions —
// resource preconditions and postconditions, output preconditions,
// variable validations and check block assertions — per checkable object,
// and renders them as the plan JSON's "checks" and the state file's
// "check_results" in the forms OpenTofu writes.
//
// A State is declared from the configuration (every object with at least
// one condition), filled by the plan, carried in the plan to the apply,
// which reports the conditions it evaluates again, and its final form is
// recorded in the state. It imports internal/addrs and internal/config.
package checks

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
)

// Status is the result of one condition, or the summary of several.
type Status uint8

const (
	// Unknown: not evaluated yet, or its value is known only after apply.
	Unknown Status = iota
	// Pass: the condition holds.
	Pass
	// Fail: the condition is false.
	Fail
	// Error: the condition could not be evaluated.
	Error
)

// String returns the status as the JSON forms write it.
func (s Status) String() string {
	switch s {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	case Error:
		return "error"
	}
	return "unknown"
}

// summarize combines statuses: any error makes an error, else any failure
// a failure, else anything unknown unknown; all passing (or none) pass.
func summarize(errors, fails, unknowns int) Status {
	switch {
	case errors > 0:
		return Error
	case fails > 0:
		return Fail
	case unknowns > 0:
		return Unknown
	}
	return Pass
}

// Kind is the kind of a checkable object.
type Kind uint8

const (
	// ResourceKind: a managed, data or ephemeral resource with conditions.
	ResourceKind Kind = iota + 1
	// OutputKind: an output value with preconditions.
	OutputKind
	// CheckKind: a check block.
	CheckKind
	// VariableKind: an input variable with validation rules.
	VariableKind
)

// RuleType says which list of a checkable object a condition is in.
type RuleType uint8

const (
	// Precondition: a resource's or output's precondition block.
	Precondition RuleType = iota
	// Postcondition: a resource's postcondition block.
	Postcondition
	// Validation: a variable's validation block.
	Validation
	// Assertion: a check block's assert block.
	Assertion
	ruleTypes
)

// Config names a checkable object in the configuration: a resource (by
// Resource) or a named output, check or variable (by Name), in the static
// module path Module.
type Config struct {
	Kind     Kind
	Module   addrs.Module
	Resource addrs.Resource
	Name     string
}

// String returns the address as users write it: module.m.output.o.
func (c Config) String() string {
	local := c.local()
	if c.Module.IsRoot() {
		return local
	}
	return string(c.Module) + "." + local
}

func (c Config) local() string {
	switch c.Kind {
	case ResourceKind:
		return c.Resource.String()
	case OutputKind:
		return "output." + c.Name
	case CheckKind:
		return "check." + c.Name
	}
	return "var." + c.Name
}

// Object names one instance of a checkable object: Config in module
// instance Module, with the resource instance Key for resources.
type Object struct {
	Config Config
	Module addrs.ModuleInstance
	Key    addrs.InstanceKey
}

// ResourceObject is the checkable object of resource instance addr.
func ResourceObject(addr addrs.AbsResourceInstance) Object {
	return Object{Config: Config{Kind: ResourceKind, Module: addr.Module.Module(), Resource: addr.Resource.Resource}, Module: addr.Module, Key: addr.Resource.Key}
}

// NamedObject is the checkable output, check or variable name of module
// instance mi.
func NamedObject(kind Kind, mi addrs.ModuleInstance, name string) Object {
	return Object{Config: Config{Kind: kind, Module: mi.Module(), Name: name}, Module: mi}
}

// String returns the instance's address: module.m[0].aws_instance.x["a"].
func (o Object) String() string {
	local := o.Config.local()
	if o.Config.Kind == ResourceKind {
		local = addrs.AbsResourceInstance{Module: o.Module, Resource: o.Config.Resource.Instance(o.Key)}.String()
		return local
	}
	if o.Module.IsRoot() {
		return local
	}
	return string(o.Module) + "." + local
}

// State holds the results of every condition of one configuration. Its
// methods are safe for concurrent use; a nil *State records nothing.
type State struct {
	mu      sync.Mutex
	configs map[Config]*configResult
}

// configResult is one checkable configuration object: how many conditions
// of each type it has, and its instances once known.
type configResult struct {
	counts  [ruleTypes]int
	objects map[Object]*objectResult
}

// objectResult is the status of each condition of one instance.
type objectResult struct {
	statuses [ruleTypes][]Status
	messages [ruleTypes][]string
}

// NewState declares every checkable object of the configuration root and
// its descendants, each with no instances known yet.
func NewState(root *config.Module) *State {
	s := &State{configs: map[Config]*configResult{}}
	for _, m := range root.AllModules() {
		for _, rs := range []map[addrs.Resource]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
			for addr, r := range rs {
				if n := len(r.Preconditions) + len(r.Postconditions); n > 0 {
					cr := &configResult{}
					cr.counts[Precondition], cr.counts[Postcondition] = len(r.Preconditions), len(r.Postconditions)
					s.configs[Config{Kind: ResourceKind, Module: m.Path, Resource: addr}] = cr
				}
			}
		}
		for name, o := range m.Outputs {
			if len(o.Preconditions) > 0 {
				cr := &configResult{}
				cr.counts[Precondition] = len(o.Preconditions)
				s.configs[Config{Kind: OutputKind, Module: m.Path, Name: name}] = cr
			}
		}
		for name, v := range m.Variables {
			if len(v.Validations) > 0 {
				cr := &configResult{}
				cr.counts[Validation] = len(v.Validations)
				s.configs[Config{Kind: VariableKind, Module: m.Path, Name: name}] = cr
			}
		}
		for _, c := range m.Checks {
			cr := &configResult{}
			cr.counts[Assertion] = len(c.Asserts)
			s.configs[Config{Kind: CheckKind, Module: m.Path, Name: c.Name}] = cr
		}
	}
	return s
}

// Empty reports whether the configuration has no checkable object.
func (s *State) Empty() bool {
	if s == nil {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.configs) == 0
}

// object returns obj's results, adding it with every condition unknown;
// nil when obj's configuration has no conditions. The caller holds mu.
func (s *State) object(obj Object) *objectResult {
	cr := s.configs[obj.Config]
	if cr == nil {
		return nil
	}
	if cr.objects == nil {
		cr.objects = map[Object]*objectResult{}
	}
	or := cr.objects[obj]
	if or == nil {
		or = &objectResult{}
		for t, n := range cr.counts {
			or.statuses[t] = make([]Status, n)
			or.messages[t] = make([]string, n)
		}
		cr.objects[obj] = or
	}
	return or
}

// ExpandIn records the instances of checkable configuration object c in
// module instance mi that the configuration declares (none is a known
// result: c then passes), keeping results already reported for them and
// dropping the other instances of c in mi.
func (s *State) ExpandIn(mi addrs.ModuleInstance, c Config, objs []Object) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cr := s.configs[c]
	if cr == nil {
		return
	}
	if cr.objects == nil {
		cr.objects = map[Object]*objectResult{}
	}
	keep := make(map[Object]bool, len(objs))
	for _, o := range objs {
		keep[o] = true
		s.object(o)
	}
	for o := range cr.objects {
		if o.Module == mi && !keep[o] {
			delete(cr.objects, o)
		}
	}
}

// Report records the status of condition index of type t of obj, with the
// condition's error message for a failure. Conditions of objects without
// declared conditions, or out of range, are ignored.
func (s *State) Report(obj Object, t RuleType, index int, status Status, message string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	or := s.object(obj)
	if or == nil || index < 0 || index >= len(or.statuses[t]) {
		return
	}
	or.statuses[t][index] = status
	if status == Fail {
		or.messages[t][index] = message
	} else {
		or.messages[t][index] = ""
	}
}

// Forget sets every result of the objects of the configuration objects
// match selects back to unknown, keeping the objects: an apply does so for
// the ephemeral resources, whose conditions only count once it opens them,
// as OpenTofu records them.
func (s *State) Forget(match func(Config) bool) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for c, cr := range s.configs {
		if !match(c) {
			continue
		}
		for _, or := range cr.objects {
			for t := range or.statuses {
				clear(or.statuses[t])
				clear(or.messages[t])
			}
		}
	}
}

// Pending reports whether some condition of obj has no result yet (its
// value was unknown when the plan evaluated it), so that the apply must
// evaluate it. It is false for an object the plan did not record.
func (s *State) Pending(obj Object) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cr := s.configs[obj.Config]
	if cr == nil || cr.objects[obj] == nil {
		return false
	}
	for _, statuses := range cr.objects[obj].statuses {
		if slices.Contains(statuses, Unknown) {
			return true
		}
	}
	return false
}

// Copy returns an independent copy of s, for an apply to update while the
// plan keeps its own.
func (s *State) Copy() *State {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &State{configs: make(map[Config]*configResult, len(s.configs))}
	for k, cr := range s.configs {
		ncr := &configResult{counts: cr.counts}
		if cr.objects != nil {
			ncr.objects = make(map[Object]*objectResult, len(cr.objects))
			for o, or := range cr.objects {
				nor := &objectResult{}
				for t := range or.statuses {
					nor.statuses[t] = slices.Clone(or.statuses[t])
					nor.messages[t] = slices.Clone(or.messages[t])
				}
				ncr.objects[o] = nor
			}
		}
		c.configs[k] = ncr
	}
	return c
}

// ConfigResult is the summary of one checkable configuration object.
type ConfigResult struct {
	Config Config
	Status Status
	// Objects is nil when the instances are not known (Status is then
	// Unknown), else sorted by address.
	Objects []ObjectResult
}

// ObjectResult is the summary of one instance's conditions.
type ObjectResult struct {
	Object Object
	Status Status
	// Messages are the error messages of the failed conditions, sorted.
	Messages []string
}

// Results returns every checkable object's results, sorted by address.
func (s *State) Results() []ConfigResult {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ConfigResult, 0, len(s.configs))
	for c, cr := range s.configs {
		res := ConfigResult{Config: c}
		if cr.objects == nil {
			out = append(out, res)
			continue
		}
		res.Objects = []ObjectResult{}
		var errs, fails, unknowns int
		for o, or := range cr.objects {
			var oe, of, ou int
			var msgs []string
			for t := range or.statuses {
				for i, st := range or.statuses[t] {
					switch st {
					case Error:
						oe++
					case Fail:
						of++
						if m := or.messages[t][i]; m != "" {
							msgs = append(msgs, m)
						}
					case Unknown:
						ou++
					}
				}
			}
			errs, fails, unknowns = errs+oe, fails+of, unknowns+ou
			slices.Sort(msgs)
			res.Objects = append(res.Objects, ObjectResult{Object: o, Status: summarize(oe, of, ou), Messages: msgs})
		}
		sortByAddress(res.Objects, func(o ObjectResult) string { return o.Object.String() })
		res.Status = summarize(errs, fails, unknowns)
		out = append(out, res)
	}
	sortByAddress(out, func(r ConfigResult) string { return r.Config.String() })
	return out
}

// stateKinds are the state file's object_kind names.
var stateKinds = map[Kind]string{ResourceKind: "resource", OutputKind: "output", CheckKind: "check", VariableKind: "var"}

// stateResult is one entry of the state file's check_results.
type stateResult struct {
	ObjectKind string        `json:"object_kind"`
	ConfigAddr string        `json:"config_addr"`
	Status     string        `json:"status"`
	Objects    []stateObject `json:"objects"`
}

type stateObject struct {
	ObjectAddr      string   `json:"object_addr"`
	Status          string   `json:"status"`
	FailureMessages []string `json:"failure_messages,omitempty"`
}

// StateJSON returns the state file's check_results for s: nil (written as
// null) when the configuration has no checkable object.
func (s *State) StateJSON() json.RawMessage {
	res := s.Results()
	if len(res) == 0 {
		return nil
	}
	out := make([]stateResult, 0, len(res))
	for _, r := range res {
		sr := stateResult{ObjectKind: stateKinds[r.Config.Kind], ConfigAddr: r.Config.String(), Status: r.Status.String()}
		for _, o := range r.Objects {
			sr.Objects = append(sr.Objects, stateObject{ObjectAddr: o.Object.String(), Status: o.Status.String(), FailureMessages: o.Messages})
		}
		out = append(out, sr)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return b
}

// planKinds are the plan JSON's kind names.
var planKinds = map[Kind]string{ResourceKind: "resource", OutputKind: "output_value", CheckKind: "check", VariableKind: "var"}

// PlanJSON is the plan JSON's "checks" array: each checkable object with
// its address, status and instances, as OpenTofu's show -json writes it.
func (s *State) PlanJSON() []any {
	res := s.Results()
	if len(res) == 0 {
		return nil
	}
	out := make([]any, 0, len(res))
	for _, r := range res {
		addr := map[string]any{"kind": planKinds[r.Config.Kind], "to_display": r.Config.String()}
		if r.Config.Kind == ResourceKind {
			switch r.Config.Resource.Mode {
			case addrs.Data:
				addr["mode"] = "data"
			case addrs.Ephemeral:
				addr["mode"] = "ephemeral"
			default:
				addr["mode"] = "managed"
			}
			addr["type"], addr["name"] = r.Config.Resource.Type, r.Config.Resource.Name
		} else {
			addr["name"] = r.Config.Name
		}
		if !r.Config.Module.IsRoot() {
			addr["module"] = r.Config.Module.String()
		}
		entry := map[string]any{"address": addr, "status": r.Status.String()}
		if len(r.Objects) > 0 {
			var insts []any
			for _, o := range r.Objects {
				oaddr := map[string]any{"to_display": o.Object.String()}
				if !o.Object.Module.IsRoot() {
					oaddr["module"] = o.Object.Module.String()
				}
				switch {
				case o.Object.Key.IsInt():
					oaddr["instance_key"] = o.Object.Key.Int()
				case o.Object.Key.IsString():
					oaddr["instance_key"] = o.Object.Key.Str()
				}
				inst := map[string]any{"address": oaddr, "status": o.Status.String()}
				if len(o.Messages) > 0 {
					var problems []any
					for _, m := range o.Messages {
						problems = append(problems, map[string]any{"message": m})
					}
					inst["problems"] = problems
				}
				insts = append(insts, inst)
			}
			entry["instances"] = insts
		}
		out = append(out, entry)
	}
	return out
}

// detailJSON is one configuration object in MarshalDetail's form.
type detailJSON struct {
	Config  string             `json:"config"`
	Objects []detailObjectJSON `json:"objects"`
}

type detailObjectJSON struct {
	Object string `json:"object"`
	// Statuses and Messages are by rule type, then condition.
	Statuses [ruleTypes][]Status `json:"statuses"`
	Messages [ruleTypes][]string `json:"messages"`
}

// MarshalDetail returns every condition's result, for a saved plan: unlike
// StateJSON's summaries, it lets an apply update single conditions.
func (s *State) MarshalDetail() (json.RawMessage, error) {
	if s == nil {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []detailJSON
	for c, cr := range s.configs {
		if cr.objects == nil {
			continue
		}
		d := detailJSON{Config: c.String(), Objects: []detailObjectJSON{}}
		for o, or := range cr.objects {
			d.Objects = append(d.Objects, detailObjectJSON{Object: o.String(), Statuses: or.statuses, Messages: or.messages})
		}
		slices.SortFunc(d.Objects, func(a, b detailObjectJSON) int { return cmp.Compare(a.Object, b.Object) })
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b detailJSON) int { return cmp.Compare(a.Config, b.Config) })
	return json.Marshal(out)
}

// UnmarshalDetail restores what MarshalDetail wrote for the checkable
// objects root declares; results for objects it does not declare, or
// whose conditions changed in number, are dropped.
func UnmarshalDetail(root *config.Module, data json.RawMessage) (*State, error) {
	s := NewState(root)
	if len(data) == 0 || string(data) == "null" {
		return s, nil
	}
	var in []detailJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, err
	}
	byAddr := map[string]Config{}
	for c := range maps.Keys(s.configs) {
		byAddr[c.String()] = c
	}
	for _, d := range in {
		c, ok := byAddr[d.Config]
		if !ok {
			continue
		}
		cr := s.configs[c]
		cr.objects = map[Object]*objectResult{}
		for _, do := range d.Objects {
			o, ok := parseObject(c, do.Object)
			if !ok {
				continue
			}
			or := s.object(o)
			for t := range or.statuses {
				if len(do.Statuses[t]) == len(or.statuses[t]) && len(do.Messages[t]) == len(or.messages[t]) {
					copy(or.statuses[t], do.Statuses[t])
					copy(or.messages[t], do.Messages[t])
				}
			}
		}
	}
	return s, nil
}

// parseObject reads an object address of configuration object c.
func parseObject(c Config, s string) (Object, bool) {
	if c.Kind == ResourceKind {
		addr, err := addrs.ParseAbsResourceInstanceStr(s)
		if err != nil {
			return Object{}, false
		}
		return ResourceObject(addr), true
	}
	local := c.local()
	if s == local {
		return Object{Config: c}, true
	}
	if len(s) > len(local)+1 && s[len(s)-len(local)-1:] == "."+local {
		mi := addrs.ModuleInstance(s[:len(s)-len(local)-1])
		if mi.Module() == c.Module {
			return Object{Config: c, Module: mi}, true
		}
	}
	return Object{}, false
}

// sortByAddress sorts items by the address addr gives, computing each
// address once rather than at every comparison.
func sortByAddress[T any](items []T, addr func(T) string) {
	keys := make([]string, len(items))
	idx := make([]int, len(items))
	for i, it := range items {
		keys[i], idx[i] = addr(it), i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
	sorted := make([]T, len(items))
	for i, j := range idx {
		sorted[i] = items[j]
	}
	copy(items, sorted)
}
