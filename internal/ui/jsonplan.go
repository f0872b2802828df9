package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// MarshalPlanJSON returns the JSON plan representation `tofu show -json
// PLANFILE` prints (format_version "1.2"): variables, planned_values,
// resource_changes (sorted, no-ops included), output_changes, prior_state,
// configuration, checks, timestamp and errored. schemas may be nil; they supply the
// sensitivity of attributes.
func MarshalPlanJSON(p *plan.Plan, schemas SchemaSource, opts JSONOptions) ([]byte, error) {
	out := jsonformat.Plan{FormatVersion: "1.2", TerraformVersion: opts.Version, Errored: p.Errored, Configuration: opts.Config}
	if out.Configuration == nil {
		out.Configuration = &jsonformat.Config{}
	}
	if !p.Timestamp.IsZero() {
		out.Timestamp = p.Timestamp.UTC().Format(time.RFC3339)
	}
	out.Checks = p.Checks.PlanJSON()
	out.RigRefresh = refreshJSON(p)
	if len(p.Variables) > 0 {
		out.Variables = map[string]jsonformat.PlanVariable{}
		for name, v := range p.Variables {
			v, _ = v.UnmarkDeep()
			j, err := marshalValue(orNull(v))
			if err != nil {
				return nil, fmt.Errorf("variable %q: %w", name, err)
			}
			out.Variables[name] = jsonformat.PlanVariable{Value: j}
		}
	}

	drift := append([]*plan.ResourceInstanceChange(nil), p.Drift...)
	sortChanges(drift)
	for _, c := range drift {
		rc, _, err := resourceChangeToJSON(c, schemas)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.ObjectAddr(), err)
		}
		out.ResourceDrift = append(out.ResourceDrift, rc)
	}
	for _, ra := range p.RelevantAttributes {
		attr, err := encodePaths([]cty.Path{ra.Path})
		if err != nil {
			return nil, fmt.Errorf("relevant attribute of %s: %w", ra.Resource, err)
		}
		// encodePaths gives a list of paths: this is the one path.
		var one []json.RawMessage
		if err := json.Unmarshal(attr, &one); err != nil || len(one) != 1 {
			return nil, fmt.Errorf("relevant attribute of %s: %v", ra.Resource, err)
		}
		out.Relevant = append(out.Relevant, jsonformat.RelevantAttribute{Resource: ra.Resource.String(), Attribute: one[0]})
	}

	changes := append([]*plan.ResourceInstanceChange(nil), p.Changes...)
	sortChanges(changes)
	planned := map[addrs.ModuleInstance][]jsonformat.StateResource{}
	why := plan.NewReasonIndex(p)
	for _, c := range changes {
		if c.Action == plan.Delete && c.Addr.Resource.Resource.Mode == addrs.Data {
			continue
		}
		rc, pv, err := resourceChangeToJSON(c, schemas)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.ObjectAddr(), err)
		}
		rc.RigReasons = ReasonsJSON(why.Reasons(c))
		out.ResourceChanges = append(out.ResourceChanges, rc)
		if pv != nil {
			planned[c.Addr.Module] = append(planned[c.Addr.Module], *pv)
		}
	}
	for m := range planned {
		slices.SortFunc(planned[m], func(a, b jsonformat.StateResource) int { return strings.Compare(a.Address, b.Address) })
	}
	out.PlannedValues.RootModule = moduleTree(planned)

	for _, ai := range p.ActionInvocations {
		j, err := invocationToJSON(ai)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ai.Addr, err)
		}
		out.ActionInvocations = append(out.ActionInvocations, j)
	}

	if len(p.Outputs) > 0 {
		out.OutputChanges = map[string]jsonformat.Change{}
		out.PlannedValues.Outputs = map[string]jsonformat.PlannedOutput{}
	}
	for name, oc := range p.Outputs {
		cj, err := outputChangeToJSON(oc)
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		out.OutputChanges[name] = cj
		if oc.Action == plan.Delete {
			continue
		}
		po := jsonformat.PlannedOutput{Sensitive: oc.Sensitive}
		if after, _ := orNull(oc.After).UnmarkDeep(); after.IsWhollyKnown() {
			if po.Value, err = marshalValue(after); err != nil {
				return nil, fmt.Errorf("output %q: %w", name, err)
			}
			if po.Type, err = ctyjson.MarshalType(after.Type()); err != nil {
				return nil, fmt.Errorf("output %q: %w", name, err)
			}
		}
		out.PlannedValues.Outputs[name] = po
	}

	if p.PriorState != nil && !p.PriorState.Empty() {
		var err error
		if out.PriorState, err = stateToJSON(p.PriorState, schemas, opts.Version); err != nil {
			return nil, fmt.Errorf("prior state: %w", err)
		}
	}
	return marshalJSON(out)
}

// resourceChangeToJSON returns a change's resource_changes entry and, for
// the current object when it is not being deleted, its planned_values entry.
func resourceChangeToJSON(c *plan.ResourceInstanceChange, schemas SchemaSource) (jsonformat.ResourceChange, *jsonformat.StateResource, error) {
	r := c.Addr.Resource.Resource
	base := baseResourceJSON(c.Addr, c.ProviderConfig.Provider)
	rc := jsonformat.ResourceChange{
		Address: base.Address, ModuleAddress: string(c.Addr.Module), Mode: base.Mode, Type: base.Type, Name: base.Name,
		Index: base.Index, ProviderName: base.ProviderName, Deposed: string(c.Deposed), ActionReason: c.Reason.JSON(),
	}
	if c.Moved() {
		rc.PreviousAddress = c.PrevRunAddr.String()
	}
	blk := lookupBlock(schemas, c.ProviderConfig.Provider, r)
	bset, aset := pathSet{}, pathSet{}
	before, after := unmarkInto(c.BeforeValue(), bset), unmarkInto(plan.WithoutUnknownEcho(c.ProviderConfig.Provider, r.Type, cty.NilVal, c.After), aset)
	ty := cty.DynamicPseudoType
	if blk != nil {
		ty = blk.ImpliedType()
	}
	if before == cty.NilVal {
		before = cty.NullVal(ty)
	}
	if after == cty.NilVal {
		after = cty.NullVal(ty)
	}
	addSchemaSensitive(blk, before, nil, bset)
	addSchemaSensitive(blk, after, nil, aset)
	before = plan.WithoutNullStore(c.ProviderConfig.Provider, r.Type, before)
	after = plan.WithoutNullStore(c.ProviderConfig.Provider, r.Type, after)

	body := jsonformat.Change{Actions: c.Action.JSONActions()}
	var err error
	if body.Before, err = marshalValue(before); err != nil {
		return rc, nil, err
	}
	if body.BeforeSensitive, err = marshalValue(sensitiveAsBool(before, nil, bset)); err != nil {
		return rc, nil, err
	}
	known := after
	afterUnknown := cty.EmptyObjectVal
	if !after.IsWhollyKnown() {
		known = omitUnknowns(after)
		afterUnknown = unknownAsBool(after)
	}
	if !isNil(known) {
		if body.After, err = marshalValue(known); err != nil {
			return rc, nil, err
		}
	}
	if after.IsNull() {
		body.After = json.RawMessage("null")
	}
	if body.AfterUnknown, err = marshalValue(afterUnknown); err != nil {
		return rc, nil, err
	}
	afterSens := sensitiveAsBool(after, nil, aset)
	if body.AfterSensitive, err = marshalValue(afterSens); err != nil {
		return rc, nil, err
	}
	if body.ReplacePaths, err = encodePaths(c.RequiredReplace); err != nil {
		return rc, nil, err
	}
	if c.Importing != nil {
		body.Importing = &jsonformat.Importing{ID: c.Importing.ID}
		body.GeneratedConfig = c.Importing.GeneratedConfig
		if body.Importing.Identity, err = identityJSON(c.Importing.Identity); err != nil {
			return rc, nil, err
		}
	}
	if body.BeforeIdentity, err = identityJSON(c.BeforeIdentity); err != nil {
		return rc, nil, err
	}
	if body.AfterIdentity, err = identityJSON(c.AfterIdentity); err != nil {
		return rc, nil, err
	}
	rc.Change = body

	if c.Deposed != addrs.NotDeposed || c.Action == plan.Delete {
		return rc, nil, nil
	}
	pv := base
	pv.SchemaVersion = c.SchemaVersion
	if !isNil(known) {
		if pv.AttributeValues, err = attributeValues(known); err != nil {
			return rc, nil, err
		}
	}
	pv.SensitiveValues = body.AfterSensitive
	if rs := replacementSensitive(c.Action, after, aset); len(rs) != len(aset) {
		if pv.SensitiveValues, err = marshalValue(sensitiveAsBool(after, nil, rs)); err != nil {
			return rc, nil, err
		}
	}
	if c.AfterIdentity != cty.NilVal && !c.AfterIdentity.IsNull() && c.AfterIdentity.IsWhollyKnown() {
		if sch, ok := schemaOf(schemas, c.ProviderConfig.Provider, r); ok && sch.Identity != nil {
			v := uint64(sch.IdentityVersion)
			pv.IdentitySchemaVersion, pv.Identity = &v, body.AfterIdentity
		}
	}
	return rc, &pv, nil
}

func outputChangeToJSON(oc *plan.OutputChange) (jsonformat.Change, error) {
	before, _ := orNull(oc.Before).UnmarkDeep()
	after, _ := orNull(oc.After).UnmarkDeep()
	body := jsonformat.Change{Actions: oc.Action.JSONActions()}
	var err error
	if body.Before, err = marshalValue(before); err != nil {
		return body, err
	}
	known, afterUnknown := after, cty.False
	if !after.IsWhollyKnown() {
		known, afterUnknown = omitUnknowns(after), unknownAsBool(after)
	}
	if !isNil(known) {
		if body.After, err = marshalValue(known); err != nil {
			return body, err
		}
	}
	if after.IsNull() {
		body.After = json.RawMessage("null")
	}
	if body.AfterUnknown, err = marshalValue(afterUnknown); err != nil {
		return body, err
	}
	sens := json.RawMessage("false")
	if oc.Sensitive {
		sens = json.RawMessage("true")
	}
	body.BeforeSensitive, body.AfterSensitive = sens, sens
	return body, nil
}

// encodePaths encodes attribute paths as arrays of steps: attribute names
// and index keys, [["triggers_replace"],["tags","Name"]]; nil for none.
func encodePaths(paths []cty.Path) (json.RawMessage, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	var all []json.RawMessage
	for _, p := range paths {
		steps := []json.RawMessage{}
		for _, step := range p {
			var j []byte
			var err error
			switch s := step.(type) {
			case cty.GetAttrStep:
				j, err = json.Marshal(s.Name)
			case cty.IndexStep:
				j, err = marshalValue(s.Key)
			default:
				err = fmt.Errorf("unsupported path step %#v", step)
			}
			if err != nil {
				return nil, err
			}
			steps = append(steps, j)
		}
		j, err := json.Marshal(steps)
		if err != nil {
			return nil, err
		}
		all = append(all, j)
	}
	return json.Marshal(all)
}
