package providertest

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// ApplyResourceChange carries out a planned change on the live objects and
// records it as an Op. The action is Create when the prior object is null,
// Delete when the planned one is null, Update otherwise.
//
// The apply takes its start sequence number (a create also allocates the
// next "id-N"), closes the matching Started channel, waits as SleepOn and
// BlockOn say (the context is ignored: only Stop cuts a wait short, making
// the apply fail without acting), checks FailOn and FailOnPartial, then acts:
//
//   - create fills in id and output (= value) and makes the object live; it
//     fails with "name %q is already taken by %s" when another live object
//     (of any type) has the same non-empty name;
//   - update replaces the live object with the planned one (output = value),
//     with the same name check; it fails with "object %s does not exist" when
//     the id is not live;
//   - delete removes the object; it fails with "object %s does not exist"
//     when the id is not live, so double deletes show.
//
// A failed create returns a null object; a failed update or delete returns
// the prior object, except for FailOnPartial.
func (p *Provider) ApplyResourceChange(_ context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	return p.apply("", req)
}

// apply is ApplyResourceChange by the configured instance whose region
// is region (see InstanceFactory), which the Op records.
func (p *Provider) apply(region string, req provider.ApplyRequest) provider.ApplyResponse {
	if !knownType(req.TypeName) {
		return provider.ApplyResponse{Diagnostics: unsupported("resource", req.TypeName)}
	}
	prior, planned := req.PriorState, req.PlannedState
	var action Action
	switch {
	case prior.IsNull() && planned.IsNull():
		return provider.ApplyResponse{NewState: planned, Diagnostics: diag.Diagnostics{diag.Errorf("Invalid apply request",
			"Applying %s: both the prior and the planned object are null.", req.TypeName)}}
	case prior.IsNull():
		action = Create
	case planned.IsNull():
		action = Delete
	default:
		action = Update
	}
	subject := planned
	if action == Delete {
		subject = prior
	}

	p.mu.Lock()
	id := str(prior, "id")
	if action == Create {
		id = str(planned, "id")
		if id == "" {
			p.lastID++
			id = fmt.Sprintf("id-%d", p.lastID)
		}
	}
	obj := newObject(req.TypeName, subject)
	key := obj.Key
	if key == "" {
		key = id
	}
	p.seq++
	op := Op{Start: p.seq, Type: req.TypeName, Key: key, Action: action, ID: id, Name: obj.Name, Value: obj.Value, Refs: refs(subject), Provider: region, Meta: str(req.ProviderMeta, "module_name")}
	idx := len(p.ops)
	p.ops = append(p.ops, op)
	k := opKey{key, action}
	if started := p.startedLocked(k); !isClosed(started) {
		close(started)
	}
	sleep, block, stop := p.sleeps[k]+p.sleepAll, p.blocks[k], p.stop
	p.mu.Unlock()

	completed := wait(sleep, block, stop)

	p.mu.Lock()
	defer p.mu.Unlock()
	resp := p.actLocked(op, k, prior, planned, completed)
	resp.Private = req.PlannedPrivate
	p.seq++
	p.ops[idx].End = p.seq
	if err := resp.Diagnostics.Err(); err != nil {
		p.ops[idx].Err = err.Error()
	}
	return resp
}

// actLocked makes the change op describes, after its wait, unless stopped or a fault says otherwise.
func (p *Provider) actLocked(op Op, k opKey, prior, planned cty.Value, completed bool) provider.ApplyResponse {
	unchanged := prior
	if op.Action == Create {
		unchanged = cty.NullVal(typeOf(op.Type))
	}
	fail := func(summary, detailFormat string, args ...any) provider.ApplyResponse {
		return provider.ApplyResponse{NewState: unchanged, Diagnostics: diag.Diagnostics{diag.Errorf(summary, detailFormat, args...)}}
	}
	switch {
	case !completed:
		return fail("Operation stopped", "stopped: %s of %s %s was interrupted", op.Action, op.Type, op.Key)
	case takeLocked(p.fails, k):
		return fail("Injected failure", "%s of %s %s failed as the test asked", op.Action, op.Type, op.Key)
	case takeLocked(p.throttles, k):
		return fail("Injected throttling", "%s of %s %s: ThrottlingException: Rate exceeded", op.Action, op.Type, op.Key)
	}

	var newState cty.Value
	switch op.Action {
	case Create, Update:
		if _, ok := p.live[op.ID]; op.Action == Update && !ok {
			return fail("Object does not exist", "object %s does not exist", op.ID)
		}
		newState = applied(planned, op.ID)
		if !newState.IsWhollyKnown() {
			return fail("Unknown values at apply", "%s of %s %s: the planned object still has unknown values besides id and output", op.Action, op.Type, op.Key)
		}
		if holder := p.nameHolderLocked(op.Name, op.ID); holder != "" {
			return fail("Name already taken", "name %q is already taken by %s", op.Name, holder)
		}
		p.putLocked(newObject(op.Type, newState))
	case Delete:
		if _, ok := p.live[op.ID]; !ok {
			return fail("Object does not exist", "object %s does not exist", op.ID)
		}
		p.removeLocked(op.ID)
		newState = cty.NullVal(typeOf(op.Type))
	}

	resp := provider.ApplyResponse{NewState: newState}
	if takeLocked(p.partials, k) {
		resp.Diagnostics = diag.Diagnostics{diag.Errorf("Injected partial failure",
			"%s of %s %s failed after making its change, as the test asked", op.Action, op.Type, op.Key)}
	}
	return resp
}

// applied returns the planned object with the values apply fills in: the id
// when unknown or null, output = value when output is unknown, and
// test_secret's password "s3cr3t-ID" when unknown.
func applied(planned cty.Value, id string) cty.Value {
	m := planned.AsValueMap()
	if v := m["id"]; !v.IsKnown() || v.IsNull() {
		m["id"] = cty.StringVal(id)
	}
	if !m["output"].IsKnown() {
		m["output"] = m["value"]
	}
	if v, ok := m["password"]; ok && !v.IsKnown() {
		m["password"] = cty.StringVal("s3cr3t-" + m["id"].AsString())
	}
	return cty.ObjectVal(m)
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// refs returns the known elements of an object's ref attribute.
func refs(obj cty.Value) []string {
	if obj.IsNull() || !obj.IsKnown() {
		return nil
	}
	v := obj.GetAttr("ref")
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	var out []string
	for _, e := range v.AsValueSlice() {
		if e.IsKnown() && !e.IsNull() {
			out = append(out, e.AsString())
		}
	}
	return out
}
