package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// ConfigSummary is what the JSON plan's "configuration" says about the
// configuration, in that format's shape. The caller, which has the loaded
// configuration, fills in what it knows; expressions are pre-encoded JSON
// ({"constant_value": …} or {"references": […]}).
type ConfigSummary struct {
	ProviderConfigs map[string]ProviderConfigSummary `json:"provider_config,omitempty"`
	RootModule      ModuleConfigSummary              `json:"root_module"`
}

// ProviderConfigSummary describes one provider configuration, keyed in
// ConfigSummary.ProviderConfigs by "NAME" or "NAME.ALIAS" (prefixed with
// "MODULE:" outside the root module).
type ProviderConfigSummary struct {
	Name              string                     `json:"name,omitempty"`
	FullName          string                     `json:"full_name,omitempty"`
	Alias             string                     `json:"alias,omitempty"`
	VersionConstraint string                     `json:"version_constraint,omitempty"`
	ModuleAddress     string                     `json:"module_address,omitempty"`
	Expressions       map[string]json.RawMessage `json:"expressions,omitempty"`
}

// ModuleConfigSummary describes one module of the configuration.
type ModuleConfigSummary struct {
	Outputs     map[string]OutputConfigSummary   `json:"outputs,omitempty"`
	Resources   []ResourceConfigSummary          `json:"resources,omitempty"`
	ModuleCalls map[string]ModuleCallSummary     `json:"module_calls,omitempty"`
	Variables   map[string]VariableConfigSummary `json:"variables,omitempty"`
}

// ResourceConfigSummary describes one resource block.
type ResourceConfigSummary struct {
	Address           string                     `json:"address,omitempty"`
	Mode              string                     `json:"mode,omitempty"`
	Type              string                     `json:"type,omitempty"`
	Name              string                     `json:"name,omitempty"`
	ProviderConfigKey string                     `json:"provider_config_key,omitempty"`
	Expressions       map[string]json.RawMessage `json:"expressions,omitempty"`
	SchemaVersion     uint64                     `json:"schema_version"`
	CountExpression   json.RawMessage            `json:"count_expression,omitempty"`
	ForEachExpression json.RawMessage            `json:"for_each_expression,omitempty"`
	DependsOn         []string                   `json:"depends_on,omitempty"`
}

// OutputConfigSummary describes one output block.
type OutputConfigSummary struct {
	Sensitive   bool            `json:"sensitive,omitempty"`
	Ephemeral   bool            `json:"ephemeral,omitempty"`
	Expression  json.RawMessage `json:"expression,omitempty"`
	DependsOn   []string        `json:"depends_on,omitempty"`
	Description string          `json:"description,omitempty"`
}

// VariableConfigSummary describes one variable block.
type VariableConfigSummary struct {
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Ephemeral   bool            `json:"ephemeral,omitempty"`
}

// ModuleCallSummary describes one module block and the module it calls.
type ModuleCallSummary struct {
	Source            string                     `json:"source,omitempty"`
	Expressions       map[string]json.RawMessage `json:"expressions,omitempty"`
	CountExpression   json.RawMessage            `json:"count_expression,omitempty"`
	ForEachExpression json.RawMessage            `json:"for_each_expression,omitempty"`
	Module            ModuleConfigSummary        `json:"module"`
	VersionConstraint string                     `json:"version_constraint,omitempty"`
	DependsOn         []string                   `json:"depends_on,omitempty"`
}

type planJSON struct {
	FormatVersion    string                      `json:"format_version,omitempty"`
	TerraformVersion string                      `json:"terraform_version,omitempty"`
	Variables        map[string]planVariableJSON `json:"variables,omitempty"`
	PlannedValues    plannedValuesJSON           `json:"planned_values"`
	ResourceDrift    []resourceChangeJSON        `json:"resource_drift,omitempty"`
	ResourceChanges  []resourceChangeJSON        `json:"resource_changes,omitempty"`
	OutputChanges    map[string]changeBodyJSON   `json:"output_changes,omitempty"`
	PriorState       *stateJSON                  `json:"prior_state,omitempty"`
	Configuration    *ConfigSummary              `json:"configuration,omitempty"`
	Relevant         []relevantAttrJSON          `json:"relevant_attributes,omitempty"`
	Checks           []any                       `json:"checks,omitempty"`
	Timestamp        string                      `json:"timestamp,omitempty"`
	Errored          bool                        `json:"errored"`
}

// relevantAttrJSON is one of the plan's relevant_attributes.
type relevantAttrJSON struct {
	Resource  string          `json:"resource"`
	Attribute json.RawMessage `json:"attribute"`
}

type planVariableJSON struct {
	Value json.RawMessage `json:"value,omitempty"`
}

type plannedValuesJSON struct {
	Outputs    map[string]plannedOutputJSON `json:"outputs,omitempty"`
	RootModule moduleJSON                   `json:"root_module"`
}

type plannedOutputJSON struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
}

type resourceChangeJSON struct {
	Address         string          `json:"address,omitempty"`
	PreviousAddress string          `json:"previous_address,omitempty"`
	ModuleAddress   string          `json:"module_address,omitempty"`
	Mode            string          `json:"mode,omitempty"`
	Type            string          `json:"type,omitempty"`
	Name            string          `json:"name,omitempty"`
	Index           json.RawMessage `json:"index,omitempty"`
	ProviderName    string          `json:"provider_name,omitempty"`
	Deposed         string          `json:"deposed,omitempty"`
	Change          changeBodyJSON  `json:"change"`
	ActionReason    string          `json:"action_reason,omitempty"`
	// RigReasons says why, beyond action_reason: rig's own field, which
	// tools that follow the documented format ignore.
	RigReasons []ReasonJSON `json:"rig_reasons,omitempty"`
}

type changeBodyJSON struct {
	Actions         []string        `json:"actions,omitempty"`
	Before          json.RawMessage `json:"before,omitempty"`
	After           json.RawMessage `json:"after,omitempty"`
	AfterUnknown    json.RawMessage `json:"after_unknown,omitempty"`
	BeforeSensitive json.RawMessage `json:"before_sensitive,omitempty"`
	AfterSensitive  json.RawMessage `json:"after_sensitive,omitempty"`
	ReplacePaths    json.RawMessage `json:"replace_paths,omitempty"`
	Importing       *importingJSON  `json:"importing,omitempty"`
	GeneratedConfig string          `json:"generated_config,omitempty"`
}

type importingJSON struct {
	ID string `json:"id"`
}

// MarshalPlanJSON returns the JSON plan representation `tofu show -json
// PLANFILE` prints (format_version "1.2"): variables, planned_values,
// resource_changes (sorted, no-ops included), output_changes, prior_state,
// configuration, checks, timestamp and errored. schemas may be nil; they supply the
// sensitivity of attributes.
func MarshalPlanJSON(p *plan.Plan, schemas SchemaSource, opts JSONOptions) ([]byte, error) {
	out := planJSON{FormatVersion: "1.2", TerraformVersion: opts.Version, Errored: p.Errored, Configuration: opts.Config}
	if out.Configuration == nil {
		out.Configuration = &ConfigSummary{}
	}
	if !p.Timestamp.IsZero() {
		out.Timestamp = p.Timestamp.UTC().Format(time.RFC3339)
	}
	out.Checks = p.Checks.PlanJSON()
	if len(p.Variables) > 0 {
		out.Variables = map[string]planVariableJSON{}
		for name, v := range p.Variables {
			v, _ = v.UnmarkDeep()
			j, err := marshalValue(orNull(v))
			if err != nil {
				return nil, fmt.Errorf("variable %q: %w", name, err)
			}
			out.Variables[name] = planVariableJSON{Value: j}
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
		out.Relevant = append(out.Relevant, relevantAttrJSON{Resource: ra.Resource.String(), Attribute: one[0]})
	}

	changes := append([]*plan.ResourceInstanceChange(nil), p.Changes...)
	sortChanges(changes)
	planned := map[addrs.ModuleInstance][]resourceJSON{}
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
		slices.SortFunc(planned[m], func(a, b resourceJSON) int { return strings.Compare(a.Address, b.Address) })
	}
	out.PlannedValues.RootModule = moduleTree(planned)

	if len(p.Outputs) > 0 {
		out.OutputChanges = map[string]changeBodyJSON{}
		out.PlannedValues.Outputs = map[string]plannedOutputJSON{}
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
		po := plannedOutputJSON{Sensitive: oc.Sensitive}
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
func resourceChangeToJSON(c *plan.ResourceInstanceChange, schemas SchemaSource) (resourceChangeJSON, *resourceJSON, error) {
	r := c.Addr.Resource.Resource
	base := baseResourceJSON(c.Addr, c.ProviderConfig.Provider)
	rc := resourceChangeJSON{
		Address: base.Address, ModuleAddress: string(c.Addr.Module), Mode: base.Mode, Type: base.Type, Name: base.Name,
		Index: base.Index, ProviderName: base.ProviderName, Deposed: string(c.Deposed), ActionReason: c.Reason.JSON(),
	}
	if c.Moved() {
		rc.PreviousAddress = c.PrevRunAddr.String()
	}
	blk := lookupBlock(schemas, c.ProviderConfig.Provider, r)
	bset, aset := pathSet{}, pathSet{}
	before, after := unmarkInto(c.Before, bset), unmarkInto(c.After, aset)
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

	body := changeBodyJSON{Actions: c.Action.JSONActions()}
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
		body.Importing = &importingJSON{ID: c.Importing.ID}
		body.GeneratedConfig = c.Importing.GeneratedConfig
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
	return rc, &pv, nil
}

func outputChangeToJSON(oc *plan.OutputChange) (changeBodyJSON, error) {
	before, _ := orNull(oc.Before).UnmarkDeep()
	after, _ := orNull(oc.After).UnmarkDeep()
	body := changeBodyJSON{Actions: oc.Action.JSONActions()}
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
