package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// JSONUIVersion is the version of the machine-readable UI message schema
// rig writes, the one OpenTofu 1.10 writes.
const JSONUIVersion = "1.2"

// jsonTimeFormat is the @timestamp format: RFC 3339 with microseconds.
const jsonTimeFormat = "2006-01-02T15:04:05.000000Z07:00"

// JSONView writes the machine-readable UI (-json): one JSON object per
// line with "@level", "@message", "@module", "@timestamp" and "type", plus
// the fields of its type, keys in sorted order as OpenTofu writes them. It
// implements apply.Hooks. It is safe for concurrent use: mu serializes
// writes; the first write error is kept and reported by Err.
type JSONView struct {
	// Now stamps each message; nil means time.Now. Set it before use.
	Now func() time.Time

	mu  sync.Mutex
	w   io.Writer
	err error
}

var _ apply.Hooks = (*JSONView)(nil)

// NewJSONView returns a view writing to w. Callers write the version
// message first, as every stream starts with it.
func NewJSONView(w io.Writer) *JSONView { return &JSONView{w: w} }

// Err returns the first error writing to the output, if any.
func (v *JSONView) Err() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.err
}

func (v *JSONView) emit(level, message, typ string, fields map[string]any) {
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	m := map[string]any{
		"@level":     level,
		"@message":   message,
		"@module":    "terraform.ui",
		"@timestamp": now().Format(jsonTimeFormat),
	}
	if typ != "" {
		m["type"] = typ // the messages of commands without a plan may have none
	}
	for k, f := range fields {
		m[k] = f
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(m)
	v.mu.Lock()
	defer v.mu.Unlock()
	if err == nil {
		_, err = v.w.Write(buf.Bytes())
	}
	if err != nil && v.err == nil {
		v.err = fmt.Errorf("writing JSON UI message: %w", err)
	}
}

// Version writes the "version" message that starts every stream: the
// Terraform version rig is compatible with as "terraform" (what OpenTofu's
// and Terraform's readers look for) and rig's own as "rig".
func (v *JSONView) Version(terraformVersion, rigVersion string) {
	v.emit("info", "rig "+rigVersion, "version", map[string]any{"terraform": terraformVersion, "rig": rigVersion, "ui": JSONUIVersion})
}

// Log writes an unstructured "log" message.
func (v *JSONView) Log(message string) { v.emit("info", message, "log", nil) }

// Diagnostics writes one "diagnostic" message per diagnostic; sources are
// used for the source snippets and may be nil.
func (v *JSONView) Diagnostics(ds diag.Diagnostics, sources map[string][]byte) {
	files := newSourceFiles(sources)
	for _, d := range ds {
		j := diagnosticToJSON(d, files)
		if d.Severity == diag.Warning {
			v.emit("warn", "Warning: "+d.Summary, "diagnostic", map[string]any{"diagnostic": j})
		} else {
			v.emit("error", "Error: "+d.Summary, "diagnostic", map[string]any{"diagnostic": j})
		}
	}
}

// Plan writes what `plan -json` reports after planning: in a refresh-only
// plan a "resource_drift" message per object changed outside rig; a
// "planned_change" message per changed object, the "change_summary", and the planned root
// outputs.
func (v *JSONView) Plan(p *plan.Plan) {
	if p.Mode == plan.RefreshOnlyMode {
		drift := append([]*plan.ResourceInstanceChange(nil), p.Drift...)
		sortChanges(drift)
		for _, c := range drift {
			v.ResourceDrift(c)
		}
	}
	changes := append([]*plan.ResourceInstanceChange(nil), p.Changes...)
	sortChanges(changes)
	for _, c := range changes {
		if c.Action == plan.NoOp || (c.Action == plan.Delete && c.Addr.Resource.Resource.Mode == addrs.Data) {
			continue
		}
		v.PlannedChange(c)
	}
	for _, ai := range p.ActionInvocations {
		v.PlannedActionInvocation(ai)
	}
	v.ChangeSummary(PlanSummary(p))
	if len(p.Outputs) > 0 {
		outs := map[string]jsonformat.OutputValue{}
		for name, oc := range p.Outputs {
			outs[name] = jsonformat.OutputValue{Sensitive: oc.Sensitive, Action: uiAction(oc.Action)}
		}
		v.emit("info", fmt.Sprintf("Outputs: %d", len(outs)), "outputs", map[string]any{"outputs": outs})
	}
}

// PlannedChange writes a "planned_change" message.
func (v *JSONView) PlannedChange(c *plan.ResourceInstanceChange) {
	j := changeToJSON(c)
	v.emit("info", fmt.Sprintf("%s: Plan to %s", j.Resource.Addr, j.Action), "planned_change", map[string]any{"change": j})
}

// ResourceDrift writes a "resource_drift" message: an object changed
// outside rig (c.Action is Update or Delete).
func (v *JSONView) ResourceDrift(c *plan.ResourceInstanceChange) {
	j := changeToJSON(c)
	v.emit("info", fmt.Sprintf("%s: Drift detected (%s)", j.Resource.Addr, j.Action), "resource_drift", map[string]any{"change": j})
}

// ChangeSummary writes a "change_summary" message.
func (v *JSONView) ChangeSummary(s ChangeSummary) {
	cs := jsonformat.ChangeSummary{
		Add: s.Add, Change: s.Change, Import: s.Import, Remove: s.Remove, Forget: s.Forget, Operation: s.Operation.String(),
	}
	if s.Actions > 0 {
		cs.ActionInvocation, cs.ActionFail = &s.Actions, &s.ActionFail
	}
	v.emit("info", s.String(), "change_summary", map[string]any{"changes": cs})
}

// Outputs writes the "outputs" message after an apply: each root output's
// type and value (the value left out when sensitive).
func (v *JSONView) Outputs(outputs map[string]state.OutputValue) error {
	outs := map[string]jsonformat.OutputValue{}
	for name, ov := range outputs {
		val, _ := ov.Value.UnmarkDeep()
		val = orNull(val)
		o := jsonformat.OutputValue{Sensitive: ov.Sensitive}
		ty, err := ctyjson.MarshalType(val.Type())
		if err != nil {
			return fmt.Errorf("output %q: %w", name, err)
		}
		o.Type = ty
		if !ov.Sensitive {
			if o.Value, err = ctyjson.Marshal(val, val.Type()); err != nil {
				return fmt.Errorf("output %q: %w", name, err)
			}
		}
		outs[name] = o
	}
	v.emit("info", fmt.Sprintf("Outputs: %d", len(outs)), "outputs", map[string]any{"outputs": outs})
	return nil
}

// PreApply writes "apply_start". The check of an unchanged object's
// conditions (a NoOp) writes nothing, here and below, as in OpenTofu.
func (v *JSONView) PreApply(op apply.Operation) {
	if op.Action == plan.NoOp {
		return
	}
	h := jsonformat.OperationHook{Resource: resourceToJSON(op.Addr), Action: uiAction(op.Action)}
	if id := priorID(op); id != "" {
		h.IDKey, h.IDValue = "id", id
	}
	v.emit("info", fmt.Sprintf("%s: %s...%s", op.Addr, startVerb(op.Action), idSuffix(h.IDValue)), "apply_start", map[string]any{"hook": h})
}

// Progress writes "apply_progress".
func (v *JSONView) Progress(op apply.Operation, elapsed time.Duration) {
	if op.Action == plan.NoOp {
		return
	}
	elapsed = elapsed.Round(time.Second)
	secs := elapsed.Seconds()
	h := jsonformat.OperationHook{Resource: resourceToJSON(op.Addr), Action: uiAction(op.Action), Elapsed: &secs}
	v.emit("info", fmt.Sprintf("%s: Still %s... [%s elapsed]", op.Addr, progressVerb(op.Action), elapsed), "apply_progress", map[string]any{"hook": h})
}

// PostApply writes "apply_complete", or "apply_errored" for a failure (whose
// details the diagnostics that follow carry).
func (v *JSONView) PostApply(op apply.Operation, res apply.Result) {
	if op.Action == plan.NoOp {
		return
	}
	elapsed := res.Elapsed.Round(time.Second)
	secs := elapsed.Seconds()
	h := jsonformat.OperationHook{Resource: resourceToJSON(op.Addr), Action: uiAction(op.Action), Elapsed: &secs}
	if res.Err != nil {
		v.emit("info", fmt.Sprintf("%s: %s errored after %s", op.Addr, actionNoun(op.Action), elapsed), "apply_errored", map[string]any{"hook": h})
		return
	}
	if res.NewIDValue != "" && op.Action != plan.Delete {
		h.IDKey, h.IDValue = "id", res.NewIDValue
	}
	v.emit("info", fmt.Sprintf("%s: %s complete after %s%s", op.Addr, actionNoun(op.Action), elapsed, idSuffix(h.IDValue)), "apply_complete", map[string]any{"hook": h})
}

// PreProvision writes "provision_start".
func (v *JSONView) PreProvision(op apply.Operation, typ string) {
	v.emit("info", fmt.Sprintf("%s: Provisioning with '%s'...", op.Addr, typ), "provision_start",
		map[string]any{"hook": jsonformat.ProvisionHook{Resource: resourceToJSON(op.Addr), Provisioner: typ}})
}

// ProvisionOutput writes "provision_progress" for a line of output, without
// its trailing spaces; blank lines are left out.
func (v *JSONView) ProvisionOutput(op apply.Operation, typ string, line string) {
	line = strings.TrimRightFunc(line, unicode.IsSpace)
	if line == "" {
		return
	}
	v.emit("info", fmt.Sprintf("%s: (%s): %s", op.Addr, typ, line), "provision_progress",
		map[string]any{"hook": jsonformat.ProvisionHook{Resource: resourceToJSON(op.Addr), Provisioner: typ, Output: &line}})
}

// PostProvision writes "provision_complete", or "provision_errored" for a
// failure (whose details a diagnostic carries, unless on_failure is
// continue).
func (v *JSONView) PostProvision(op apply.Operation, typ string, err error) {
	h := map[string]any{"hook": jsonformat.ProvisionHook{Resource: resourceToJSON(op.Addr), Provisioner: typ}}
	if err != nil {
		v.emit("info", fmt.Sprintf("%s: (%s) Provisioning errored", op.Addr, typ), "provision_errored", h)
		return
	}
	v.emit("info", fmt.Sprintf("%s: (%s) Provisioning complete", op.Addr, typ), "provision_complete", h)
}

func startVerb(a plan.Action) string {
	switch a {
	case plan.Create:
		return "Creating"
	case plan.Update:
		return "Modifying"
	case plan.Delete:
		return "Destroying"
	case plan.Read:
		return "Refreshing"
	case plan.DeleteThenCreate, plan.CreateThenDelete:
		return "Replacing"
	}
	return "Applying"
}

func progressVerb(a plan.Action) string {
	switch a {
	case plan.Create:
		return "creating"
	case plan.Update:
		return "modifying"
	case plan.Delete:
		return "destroying"
	case plan.Read:
		return "refreshing"
	case plan.DeleteThenCreate, plan.CreateThenDelete:
		return "replacing"
	}
	return "applying"
}

func actionNoun(a plan.Action) string {
	switch a {
	case plan.Create:
		return "Creation"
	case plan.Update:
		return "Modifications"
	case plan.Delete:
		return "Destruction"
	case plan.Read:
		return "Refresh"
	case plan.DeleteThenCreate, plan.CreateThenDelete:
		return "Replacement"
	}
	return "Apply"
}

// uiAction is an action as the -json messages name it.
func uiAction(a plan.Action) string {
	switch a {
	case plan.Create:
		return "create"
	case plan.Read:
		return "read"
	case plan.Update:
		return "update"
	case plan.DeleteThenCreate, plan.CreateThenDelete, plan.ForgetThenCreate:
		return "replace"
	case plan.Delete:
		return "delete"
	case plan.Forget:
		// As OpenTofu and Terraform name it.
		return "remove"
	}
	return "noop"
}

// uiReason is an action reason as "planned_change" names it.
func uiReason(r plan.ActionReason) string {
	switch r {
	case plan.ReplaceBecauseTainted:
		return "tainted"
	case plan.ReplaceByRequest:
		return "requested"
	case plan.ReplaceBecauseCannotUpdate:
		return "cannot_update"
	case plan.ReplaceByTriggers:
		return "replace_triggered_by"
	}
	return r.JSON()
}

func resourceToJSON(a addrs.AbsResourceInstance) jsonformat.ResourceAddr {
	r := a.Resource.Resource
	return jsonformat.ResourceAddr{
		Addr:            a.String(),
		Module:          a.Module.String(),
		Resource:        a.Resource.String(),
		ImpliedProvider: r.ImpliedProviderType(),
		ResourceType:    r.Type,
		ResourceName:    r.Name,
		ResourceKey:     json.RawMessage(keyJSON(a.Resource.Key)),
	}
}

func changeToJSON(c *plan.ResourceInstanceChange) jsonformat.PlannedChange {
	return jsonformat.PlannedChange{Resource: resourceToJSON(c.Addr), Action: uiAction(c.Action), Reason: uiReason(c.Reason)}
}

func diagnosticToJSON(d diag.Diagnostic, files *sourceFiles) jsonformat.Diagnostic {
	j := jsonformat.Diagnostic{Severity: d.Severity.String(), Summary: d.Summary, Detail: d.Detail, Address: d.AddressText()}
	if hl, _ := diagRanges(d); hl != nil {
		j.Range = &jsonformat.Range{
			Filename: hl.Filename,
			Start:    jsonformat.Pos{Line: hl.Start.Line, Column: hl.Start.Column, Byte: hl.Start.Byte},
			End:      jsonformat.Pos{Line: hl.End.Line, Column: hl.End.Column, Byte: hl.End.Byte},
		}
		j.Snippet = files.snippet(d)
	}
	j.Difference = differenceToJSON(d.Difference)
	return j
}

// MarshalValidateJSON returns the document `validate -json` prints:
// validity, counts, and the diagnostics with their source snippets.
func MarshalValidateJSON(ds diag.Diagnostics, sources map[string][]byte) ([]byte, error) {
	files := newSourceFiles(sources)
	out := jsonformat.Validation{FormatVersion: "1.0", Diagnostics: []jsonformat.Diagnostic{}}
	for _, d := range ds {
		if d.Severity == diag.Warning {
			out.WarningCount++
		} else {
			out.ErrorCount++
		}
		out.Diagnostics = append(out.Diagnostics, diagnosticToJSON(d, files))
	}
	out.Valid = out.ErrorCount == 0
	return marshalJSON(out)
}

// ValidateDocument is MarshalValidateJSON's document indented by two
// spaces, as OpenTofu and Terraform print `validate -json`.
func ValidateDocument(ds diag.Diagnostics, sources map[string][]byte) ([]byte, error) {
	b, err := MarshalValidateJSON(ds, sources)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// marshalJSON encodes without HTML escaping and without a trailing newline.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
