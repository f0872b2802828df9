package providertest

import "strings"

// Action is the kind of change one ApplyResourceChange call carries out.
type Action uint8

const (
	// Create makes a new object: the prior state is null.
	Create Action = iota + 1
	// Update changes a live object in place: prior and planned states are both non-null.
	Update
	// Delete removes a live object: the planned state is null.
	Delete
)

// String returns "create", "update" or "delete".
func (a Action) String() string {
	switch a {
	case Create:
		return "create"
	case Update:
		return "update"
	case Delete:
		return "delete"
	}
	return "invalid"
}

// Op records one ApplyResourceChange call.
//
// Start and End are values of a single counter the provider increments when
// an apply starts, when it ends, and at each Stop and Close call, so every
// number occurs once and x ended before y started exactly when x.End < y.Start.
type Op struct {
	// Start is the sequence number taken when the apply started.
	Start int
	// End is the sequence number taken when the apply returned; 0 while it is still running.
	End int
	// Type is the resource type, e.g. "test_thing".
	Type string
	// Key is the object's key attribute, or its id when key is unset.
	Key string
	// Action is what the apply did (or tried to do).
	Action Action
	// ID is the id of the object concerned; for a create, the id allocated to it.
	ID string
	// Name is the name attribute the apply was made with ("" when null).
	// For a delete it is the prior object's name.
	Name string
	// Value is the value attribute the apply was made with ("" when null).
	// For a delete it is the prior object's value.
	Value string
	// Refs is the ref attribute the apply was made with (for a delete, the
	// prior object's): the ids of the objects this one refers to.
	Refs []string
	// Meta is the module_name of the provider_meta value the apply was
	// sent ("" without one).
	Meta string
	// Provider is the region of the configured instance that made the
	// apply, for an instance from InstanceFactory; "" otherwise.
	Provider string
	// Err is the text of the error diagnostics returned, "" when the apply
	// succeeded. A partial failure (FailOnPartial) has Err set although the
	// change was made.
	Err string
}

// Done reports whether the apply has returned.
func (o Op) Done() bool { return o.End != 0 }

// String returns "ACTION KEY", with " (failed)" for an apply that returned
// errors and " (running)" for one that has not returned yet.
func (o Op) String() string {
	s := o.Action.String() + " " + o.Key
	switch {
	case !o.Done():
		s += " (running)"
	case o.Err != "":
		s += " (failed)"
	}
	return s
}

// Before reports whether x returned before y started. It is false when x is still running.
func Before(x, y Op) bool { return x.Done() && x.End < y.Start }

// Overlapped reports whether x and y ran at the same time for some while:
// each started before the other returned. A running op has not returned.
func Overlapped(x, y Op) bool {
	return (!y.Done() || x.Start < y.End) && (!x.Done() || y.Start < x.End)
}

// OrderString joins the ops' String forms in the given order with "; ",
// e.g. "delete a; create a; update b".
func OrderString(ops []Op) string {
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = o.String()
	}
	return strings.Join(parts, "; ")
}

// Ops returns every apply recorded so far, in start order, including those
// still running (End 0). The caller owns the slice.
func (p *Provider) Ops() []Op {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Op(nil), p.ops...)
}

// OrderString returns OrderString(p.Ops()).
func (p *Provider) OrderString() string { return OrderString(p.Ops()) }

// Find returns the first recorded apply of key and action, and whether there is one.
func (p *Provider) Find(key string, action Action) (Op, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, o := range p.ops {
		if o.Key == key && o.Action == action {
			return o, true
		}
	}
	return Op{}, false
}

// Stops returns the sequence number (see Op) of each Stop call, in order.
// The caller owns the slice.
func (p *Provider) Stops() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int(nil), p.stops...)
}

// Closes returns the sequence number (see Op) of each Close call, in order.
// The caller owns the slice.
func (p *Provider) Closes() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int(nil), p.closes...)
}
