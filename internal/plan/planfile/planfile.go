package planfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/hashicorp/hcl/v2"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/ctyjson"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// formatName and formatVersion identify the file format.
const (
	formatName    = "rig-plan"
	formatVersion = 1
)

// File is the content of a saved plan.
type File struct {
	Plan *plan.Plan
	// Config holds the configuration files as they were planned, by file name.
	Config map[string][]byte
	// StateLineage and StateSerial identify the state the plan was made against.
	StateLineage string
	StateSerial  uint64
	// Workspace is the workspace the plan was made in.
	Workspace string
	// CheckResults are the plan's check results as read (checks.State's
	// MarshalDetail form); restore them with checks.UnmarshalDetail once
	// the configuration is loaded. Marshal writes Plan.Checks.
	CheckResults json.RawMessage
}

type fileJSON struct {
	Format       string            `json:"format"`
	Version      int               `json:"version"`
	Mode         string            `json:"mode"`
	Errored      bool              `json:"errored,omitempty"` // a partial plan, to show, never to apply
	Targets      []string          `json:"targets,omitempty"`
	Excludes     []string          `json:"excludes,omitempty"`
	Timestamp    time.Time         `json:"timestamp"`
	Workspace    string            `json:"workspace"`
	StateLineage string            `json:"state_lineage"`
	StateSerial  uint64            `json:"state_serial"`
	Config       map[string]string `json:"config"`
	Variables    map[string][]byte `json:"variables"`
	// EphemeralVariables are the root variables whose values the plan
	// leaves out, to be given again when it is applied.
	EphemeralVariables []string              `json:"ephemeral_variables,omitempty"`
	Changes            []changeJSON          `json:"changes"`
	Outputs            map[string]outputJSON `json:"outputs"`
	PriorState         json.RawMessage       `json:"prior_state"`
	PrevRunState       json.RawMessage       `json:"prev_run_state"`
	CheckResults       json.RawMessage       `json:"check_results,omitempty"`
	Drift              []changeJSON          `json:"drift,omitempty"`
	Relevant           []relevantJSON        `json:"relevant_attributes,omitempty"`
	// ActionInvocations are the actions the plan runs.
	ActionInvocations []invocationJSON `json:"action_invocations,omitempty"`
	// Refresh is how the plan read recorded objects back, and what it
	// read and left as recorded (refresh.go).
	Refresh       string             `json:"refresh,omitempty"`
	RefreshMaxAge string             `json:"refresh_max_age,omitempty"`
	Refreshed     []refreshedJSON    `json:"refreshed,omitempty"`
	NotRefreshed  []notRefreshedJSON `json:"not_refreshed,omitempty"`
}

type relevantJSON struct {
	Resource string `json:"resource"`
	Path     []byte `json:"path"`
}

type changeJSON struct {
	Addr            string       `json:"addr"`
	PrevRunAddr     string       `json:"prev_run_addr,omitempty"`
	ImportingID     *string      `json:"importing_id,omitempty"`
	GeneratedConfig string       `json:"generated_config,omitempty"`
	Deposed         string       `json:"deposed,omitempty"`
	Provider        string       `json:"provider"`
	Action          string       `json:"action"`
	Reason          string       `json:"reason,omitempty"`
	Before          []byte       `json:"before"`
	After           []byte       `json:"after"`
	BeforeSensitive [][]byte     `json:"before_sensitive_paths,omitempty"`
	AfterSensitive  [][]byte     `json:"after_sensitive_paths,omitempty"`
	RequiredReplace [][]byte     `json:"required_replace,omitempty"`
	PriorPrivate    []byte       `json:"prior_private,omitempty"`
	PlannedPrivate  []byte       `json:"planned_private,omitempty"`
	ConfigDigest    []byte       `json:"config_digest,omitempty"`
	CBD             bool         `json:"create_before_destroy,omitempty"`
	SkipDestroy     bool         `json:"skip_destroy,omitempty"`
	PreventDestroy  string       `json:"rig_prevent_destroy,omitempty"`
	Gate            *gateJSON    `json:"rig_health_gate,omitempty"`
	CBDFrom         string       `json:"create_before_destroy_from,omitempty"`
	CBDVia          string       `json:"create_before_destroy_via,omitempty"`
	Trigger         *triggerJSON `json:"replace_triggered_by,omitempty"`
	ReadCause       string       `json:"read_cause,omitempty"`
	ReadAfter       string       `json:"read_after,omitempty"`
	Dependencies    []string     `json:"dependencies,omitempty"`
	SchemaVersion   uint64       `json:"schema_version"`
	// The resource identities (absent when the type declares none) and
	// the identity an import block named the object by.
	BeforeIdentity    []byte `json:"before_identity,omitempty"`
	AfterIdentity     []byte `json:"after_identity,omitempty"`
	ImportingIdentity []byte `json:"importing_identity,omitempty"`
}

type outputJSON struct {
	Action          string   `json:"action"`
	Before          []byte   `json:"before"`
	After           []byte   `json:"after"`
	BeforeSensitive [][]byte `json:"before_sensitive_paths,omitempty"`
	AfterSensitive  [][]byte `json:"after_sensitive_paths,omitempty"`
	Sensitive       bool     `json:"sensitive,omitempty"`
}

var actionNames = map[plan.Action]string{}

// triggerJSON is the replace_triggered_by entry that forced a replacement.
type triggerJSON struct {
	Changed string  `json:"changed"`
	Path    []byte  `json:"path,omitempty"`
	File    string  `json:"file"`
	Start   posJSON `json:"start"`
	End     posJSON `json:"end"`
}

type posJSON struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

var reasonNames = map[string]plan.ActionReason{}

func init() {
	for a := plan.NoOp; a <= plan.LastAction; a++ {
		actionNames[a] = a.String()
	}
	for r := plan.ReasonNone + 1; r <= plan.LastReason; r++ {
		reasonNames[r.JSON()] = r
	}
}

func parseAction(s string) (plan.Action, error) {
	for a, n := range actionNames {
		if n == s {
			return a, nil
		}
	}
	return 0, fmt.Errorf("unknown action %q", s)
}

// encodeValue encodes v without its marks, and the paths of its
// (sensitive) marks apart, as OpenTofu's plan file keeps them.
func encodeValue(v cty.Value) ([]byte, [][]byte, error) {
	if v == cty.NilVal {
		v = cty.NullVal(cty.DynamicPseudoType)
	}
	v, pvms := v.UnmarkDeepWithPaths()
	b, err := ctymsgpack.Marshal(v, cty.DynamicPseudoType)
	if err != nil {
		return nil, nil, err
	}
	var paths [][]byte
	for _, pvm := range pvms {
		p, err := encodePath(pvm.Path)
		if err != nil {
			return nil, nil, err
		}
		paths = append(paths, p)
	}
	return b, paths, nil
}

// decodeValue decodes a value encodeValue wrote, marking sensitive the
// values at the given paths.
func decodeValue(b []byte, sensitive [][]byte) (cty.Value, error) {
	v, err := unmarshalDynamic(b)
	if err != nil || len(sensitive) == 0 {
		return v, err
	}
	paths := make([]cty.Path, 0, len(sensitive))
	for _, p := range sensitive {
		path, err := decodePath(p)
		if err != nil {
			return cty.NilVal, err
		}
		paths = append(paths, path)
	}
	return marks.MarkPaths(v, paths), nil
}

// Write saves f to path atomically. A saved plan holds the prior state and
// the variables, so may hold secrets: the file is created with mode 0600
// whatever the umask, and a file it replaces passes on its mode less any
// group and other bits (a stricter mode is kept, never widened).
func Write(path string, f *File) error {
	data, err := Marshal(f)
	if err != nil {
		return err
	}
	return WriteBytes(path, data)
}

// WriteBytes saves an encoded plan (Marshal's result, or its encrypted
// form) to path as Write does.
func WriteBytes(path string, data []byte) error {
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm() & 0o600
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".rigplan-*")
	if err != nil {
		return fmt.Errorf("writing plan %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("writing plan %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing plan %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing plan %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing plan %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing plan %s: %w", path, err)
	}
	return nil
}

// Marshal encodes f.
func Marshal(f *File) ([]byte, error) {
	p := f.Plan
	fj := fileJSON{
		Format: formatName, Version: formatVersion, Timestamp: p.Timestamp, Workspace: f.Workspace,
		StateLineage: f.StateLineage, StateSerial: f.StateSerial, Errored: p.Errored,
		Config: map[string]string{}, Variables: map[string][]byte{}, Outputs: map[string]outputJSON{},
	}
	switch p.Mode {
	case plan.DestroyMode:
		fj.Mode = "destroy"
	case plan.RefreshOnlyMode:
		fj.Mode = "refresh-only"
	default:
		fj.Mode = "normal"
	}
	for name, src := range f.Config {
		fj.Config[name] = string(src)
	}
	for _, t := range p.Targets {
		fj.Targets = append(fj.Targets, t.String())
	}
	for _, t := range p.Excludes {
		fj.Excludes = append(fj.Excludes, t.String())
	}
	fj.EphemeralVariables = p.EphemeralVariables
	for name, v := range p.Variables {
		if slices.Contains(p.EphemeralVariables, name) {
			continue
		}
		// Root variable values carry no marks (references to sensitive
		// ones are marked where they are evaluated).
		b, _, err := encodeValue(v)
		if err != nil {
			return nil, fmt.Errorf("encoding variable %s: %w", name, err)
		}
		fj.Variables[name] = b
	}
	for _, list := range []struct {
		from []*plan.ResourceInstanceChange
		to   *[]changeJSON
	}{{p.Changes, &fj.Changes}, {p.Drift, &fj.Drift}} {
		for _, c := range list.from {
			cj, err := encodeChange(c)
			if err != nil {
				return nil, err
			}
			*list.to = append(*list.to, cj)
		}
	}
	for _, ra := range p.RelevantAttributes {
		path, err := encodePath(ra.Path)
		if err != nil {
			return nil, fmt.Errorf("encoding relevant attribute of %s: %w", ra.Resource, err)
		}
		fj.Relevant = append(fj.Relevant, relevantJSON{Resource: ra.Resource.String(), Path: path})
	}
	for name, o := range p.Outputs {
		before, beforeSens, err := encodeValue(o.Before)
		if err != nil {
			return nil, fmt.Errorf("encoding output %s: %w", name, err)
		}
		after, afterSens, err := encodeValue(o.After)
		if err != nil {
			return nil, fmt.Errorf("encoding output %s: %w", name, err)
		}
		fj.Outputs[name] = outputJSON{Action: o.Action.String(), Before: before, After: after, BeforeSensitive: beforeSens, AfterSensitive: afterSens, Sensitive: o.Sensitive}
	}
	encodeRefresh(p, &fj)
	var err error
	if fj.ActionInvocations, err = encodeInvocations(p.ActionInvocations); err != nil {
		return nil, err
	}
	if fj.CheckResults, err = p.Checks.MarshalDetail(); err != nil {
		return nil, fmt.Errorf("encoding check results: %w", err)
	}
	if fj.PriorState, err = statefile.Marshal(orEmpty(p.PriorState)); err != nil {
		return nil, fmt.Errorf("encoding prior state: %w", err)
	}
	if fj.PrevRunState, err = statefile.Marshal(orEmpty(p.PrevRunState)); err != nil {
		return nil, fmt.Errorf("encoding previous run state: %w", err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(fj); err != nil {
		return nil, fmt.Errorf("encoding plan: %w", err)
	}
	return buf.Bytes(), nil
}

func orEmpty(s *state.State) *state.State {
	if s == nil {
		return state.New()
	}
	return s
}

// Read loads a saved plan from path.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading plan %s: %w", path, err)
	}
	f, err := Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("reading plan %s: %w", path, err)
	}
	return f, nil
}

// IsPlanFile reports whether path is a file that looks like a saved plan.
func IsPlanFile(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var probe struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.Format == formatName
}

// Unmarshal decodes a saved plan.
func Unmarshal(data []byte) (*File, error) {
	var fj fileJSON
	if err := json.Unmarshal(data, &fj); err != nil {
		return nil, fmt.Errorf("not a rig plan file: %w", err)
	}
	if fj.Format != formatName {
		return nil, fmt.Errorf("not a rig plan file")
	}
	if fj.Version != formatVersion {
		return nil, fmt.Errorf("plan file format version %d is not supported (want %d)", fj.Version, formatVersion)
	}
	p := &plan.Plan{Timestamp: fj.Timestamp, Errored: fj.Errored, Variables: map[string]cty.Value{}, Outputs: map[string]*plan.OutputChange{}}
	switch fj.Mode {
	case "destroy":
		p.Mode = plan.DestroyMode
	case "refresh-only":
		p.Mode = plan.RefreshOnlyMode
	}
	f := &File{Plan: p, Config: map[string][]byte{}, StateLineage: fj.StateLineage, StateSerial: fj.StateSerial, Workspace: fj.Workspace,
		CheckResults: fj.CheckResults}
	for name, src := range fj.Config {
		f.Config[name] = []byte(src)
	}
	for _, list := range []struct {
		from []string
		to   *[]addrs.Target
	}{{fj.Targets, &p.Targets}, {fj.Excludes, &p.Excludes}} {
		for _, s := range list.from {
			t, err := addrs.ParseTargetStr(s)
			if err != nil {
				return nil, err
			}
			*list.to = append(*list.to, t)
		}
	}
	p.EphemeralVariables = fj.EphemeralVariables
	for name, b := range fj.Variables {
		v, err := decodeValue(b, nil)
		if err != nil {
			return nil, fmt.Errorf("decoding variable %s: %w", name, err)
		}
		p.Variables[name] = v
	}
	for _, list := range []struct {
		from []changeJSON
		to   *[]*plan.ResourceInstanceChange
	}{{fj.Changes, &p.Changes}, {fj.Drift, &p.Drift}} {
		for _, cj := range list.from {
			c, err := decodeChange(cj)
			if err != nil {
				return nil, err
			}
			*list.to = append(*list.to, c)
		}
	}
	for _, rj := range fj.Relevant {
		addr, err := addrs.ParseAbsResourceInstanceStr(rj.Resource)
		if err != nil {
			return nil, fmt.Errorf("relevant attribute: %w", err)
		}
		path, err := decodePath(rj.Path)
		if err != nil {
			return nil, fmt.Errorf("relevant attribute of %s: %w", addr, err)
		}
		p.RelevantAttributes = append(p.RelevantAttributes, plan.ResourceAttr{Resource: addr, Path: path})
	}
	for name, oj := range fj.Outputs {
		a, err := parseAction(oj.Action)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", name, err)
		}
		before, err := decodeValue(oj.Before, oj.BeforeSensitive)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", name, err)
		}
		after, err := decodeValue(oj.After, oj.AfterSensitive)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", name, err)
		}
		p.Outputs[name] = &plan.OutputChange{Action: a, Before: before, After: after, Sensitive: oj.Sensitive}
	}
	if err := decodeRefresh(&fj, p); err != nil {
		return nil, err
	}
	var err error
	if p.ActionInvocations, err = decodeInvocations(fj.ActionInvocations); err != nil {
		return nil, err
	}
	if p.PriorState, err = statefile.Parse(fj.PriorState); err != nil {
		return nil, fmt.Errorf("prior state: %w", err)
	}
	if p.PrevRunState, err = statefile.Parse(fj.PrevRunState); err != nil {
		return nil, fmt.Errorf("previous run state: %w", err)
	}
	return f, nil
}

func decodeChange(cj changeJSON) (*plan.ResourceInstanceChange, error) {
	addr, err := addrs.ParseAbsResourceInstanceStr(cj.Addr)
	if err != nil {
		return nil, err
	}
	pc, err := addrs.ParseAbsProviderConfig(cj.Provider)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cj.Addr, err)
	}
	a, err := parseAction(cj.Action)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cj.Addr, err)
	}
	c := &plan.ResourceInstanceChange{
		Addr: addr, Deposed: addrs.DeposedKey(cj.Deposed), ProviderConfig: pc, Action: a, Reason: reasonNames[cj.Reason],
		PriorPrivate: cj.PriorPrivate, PlannedPrivate: cj.PlannedPrivate, ConfigDigest: cj.ConfigDigest, CreateBeforeDestroy: cj.CBD, SchemaVersion: cj.SchemaVersion,
		SkipDestroy: cj.SkipDestroy, PreventDestroy: cj.PreventDestroy,
	}
	if g := cj.Gate; g != nil {
		c.Gate = &plan.HealthGate{Interval: g.Interval, Timeout: g.Timeout, BatchSize: g.BatchSize, Batch: g.Batch}
	}
	if cj.CBDFrom != "" {
		if c.CBDInheritedFrom, err = addrs.ParseAbsResourceStr(cj.CBDFrom); err != nil {
			return nil, fmt.Errorf("%s: %w", cj.Addr, err)
		}
	}
	if cj.CBDVia != "" {
		if c.CBDVia, err = addrs.ParseAbsResourceStr(cj.CBDVia); err != nil {
			return nil, fmt.Errorf("%s: %w", cj.Addr, err)
		}
	}
	if tj := cj.Trigger; tj != nil {
		t := &plan.Trigger{Range: hcl.Range{Filename: tj.File,
			Start: hcl.Pos{Line: tj.Start.Line, Column: tj.Start.Column, Byte: tj.Start.Byte},
			End:   hcl.Pos{Line: tj.End.Line, Column: tj.End.Column, Byte: tj.End.Byte}}}
		if t.Changed, err = addrs.ParseAbsResourceInstanceStr(tj.Changed); err != nil {
			return nil, fmt.Errorf("%s: %w", cj.Addr, err)
		}
		if len(tj.Path) > 0 {
			if t.Path, err = decodePath(tj.Path); err != nil {
				return nil, fmt.Errorf("%s: %w", cj.Addr, err)
			}
		}
		c.Trigger = t
	}
	c.ReadCause = plan.ParseReadCause(cj.ReadCause)
	if cj.ReadAfter != "" {
		if c.ReadAfter, err = addrs.ParseAbsResourceInstanceStr(cj.ReadAfter); err != nil {
			return nil, fmt.Errorf("%s: %w", cj.Addr, err)
		}
	}
	if cj.ImportingID != nil {
		c.Importing = &plan.Importing{ID: *cj.ImportingID, GeneratedConfig: cj.GeneratedConfig}
		if cj.ImportingIdentity != nil {
			if c.Importing.Identity, err = decodeValue(cj.ImportingIdentity, nil); err != nil {
				return nil, fmt.Errorf("%s: importing identity: %w", cj.Addr, err)
			}
		}
	}
	for _, id := range []struct {
		b   []byte
		dst *cty.Value
	}{{cj.BeforeIdentity, &c.BeforeIdentity}, {cj.AfterIdentity, &c.AfterIdentity}} {
		if id.b != nil {
			if *id.dst, err = decodeValue(id.b, nil); err != nil {
				return nil, fmt.Errorf("%s: identity: %w", cj.Addr, err)
			}
		}
	}
	if cj.PrevRunAddr != "" {
		if c.PrevRunAddr, err = addrs.ParseAbsResourceInstanceStr(cj.PrevRunAddr); err != nil {
			return nil, fmt.Errorf("%s: %w", cj.Addr, err)
		}
	}
	if c.Before, err = decodeValue(cj.Before, cj.BeforeSensitive); err != nil {
		return nil, fmt.Errorf("%s: %w", cj.Addr, err)
	}
	if c.Action == plan.Delete || c.Action == plan.Forget {
		// Read once above, so that a damaged value is an error here; kept
		// encoded until the delete runs.
		before, sensitive := cj.Before, cj.BeforeSensitive
		c.StoreBeforeEncoded(func() (cty.Value, error) { return decodeValue(before, sensitive) })
	}
	if c.After, err = decodeValue(cj.After, cj.AfterSensitive); err != nil {
		return nil, fmt.Errorf("%s: %w", cj.Addr, err)
	}
	for _, b := range cj.RequiredReplace {
		path, err := decodePath(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cj.Addr, err)
		}
		c.RequiredReplace = append(c.RequiredReplace, path)
	}
	for _, d := range cj.Dependencies {
		ra, err := addrs.ParseAbsResourceStr(d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cj.Addr, err)
		}
		c.Dependencies = append(c.Dependencies, ra)
	}
	return c, nil
}

// gateJSON is a change's health gate in a saved plan.
type gateJSON struct {
	Interval  time.Duration `json:"interval_ns"`
	Timeout   time.Duration `json:"timeout_ns"`
	BatchSize int           `json:"batch_size,omitempty"`
	Batch     int           `json:"batch,omitempty"`
}

// encodeChange returns the saved form of a resource instance change.
func encodeChange(c *plan.ResourceInstanceChange) (changeJSON, error) {
	cj := changeJSON{
		Addr: c.Addr.String(), Deposed: string(c.Deposed), Provider: c.ProviderConfig.String(),
		Action: c.Action.String(), Reason: c.Reason.JSON(), PriorPrivate: c.PriorPrivate, PlannedPrivate: c.PlannedPrivate, ConfigDigest: c.ConfigDigest,
		CBD: c.CreateBeforeDestroy, SchemaVersion: c.SchemaVersion, SkipDestroy: c.SkipDestroy, PreventDestroy: c.PreventDestroy,
	}
	if g := c.Gate; g != nil {
		cj.Gate = &gateJSON{Interval: g.Interval, Timeout: g.Timeout, BatchSize: g.BatchSize, Batch: g.Batch}
	}
	if c.CBDInheritedFrom != (addrs.AbsResource{}) {
		cj.CBDFrom = c.CBDInheritedFrom.String()
	}
	if c.CBDVia != (addrs.AbsResource{}) {
		cj.CBDVia = c.CBDVia.String()
	}
	if t := c.Trigger; t != nil {
		tj := &triggerJSON{Changed: t.Changed.String(), File: t.Range.Filename,
			Start: posJSON{t.Range.Start.Line, t.Range.Start.Column, t.Range.Start.Byte},
			End:   posJSON{t.Range.End.Line, t.Range.End.Column, t.Range.End.Byte}}
		if len(t.Path) > 0 {
			b, err := encodePath(t.Path)
			if err != nil {
				return changeJSON{}, fmt.Errorf("encoding %s: %w", c.Addr, err)
			}
			tj.Path = b
		}
		cj.Trigger = tj
	}
	cj.ReadCause = c.ReadCause.String()
	if c.ReadAfter != (addrs.AbsResourceInstance{}) {
		cj.ReadAfter = c.ReadAfter.String()
	}
	if c.Moved() {
		cj.PrevRunAddr = c.PrevRunAddr.String()
	}
	var err error
	if c.Importing != nil {
		cj.ImportingID = &c.Importing.ID
		cj.GeneratedConfig = c.Importing.GeneratedConfig
		if c.Importing.Identity != cty.NilVal {
			if cj.ImportingIdentity, _, err = encodeValue(c.Importing.Identity); err != nil {
				return changeJSON{}, fmt.Errorf("encoding %s: %w", c.Addr, err)
			}
		}
	}
	for _, id := range []struct {
		v   cty.Value
		dst *[]byte
	}{{c.BeforeIdentity, &cj.BeforeIdentity}, {c.AfterIdentity, &cj.AfterIdentity}} {
		if id.v != cty.NilVal {
			if *id.dst, _, err = encodeValue(id.v); err != nil {
				return changeJSON{}, fmt.Errorf("encoding %s: %w", c.Addr, err)
			}
		}
	}
	if cj.Before, cj.BeforeSensitive, err = encodeValue(c.BeforeValue()); err != nil {
		return changeJSON{}, fmt.Errorf("encoding %s: %w", c.Addr, err)
	}
	if cj.After, cj.AfterSensitive, err = encodeValue(c.After); err != nil {
		return changeJSON{}, fmt.Errorf("encoding %s: %w", c.Addr, err)
	}
	for _, path := range c.RequiredReplace {
		b, err := encodePath(path)
		if err != nil {
			return changeJSON{}, fmt.Errorf("encoding %s: %w", c.Addr, err)
		}
		cj.RequiredReplace = append(cj.RequiredReplace, b)
	}
	for _, d := range c.Dependencies {
		cj.Dependencies = append(cj.Dependencies, d.String())
	}
	return cj, nil
}

// unmarshalDynamic decodes a msgpack value of dynamic type: a two-element
// array of the type's JSON description and the value. go-cty's decoder
// reads the description in time growing with the square of its nesting,
// so the description is read here and the value handed to go-cty with its
// type; anything else, errors included, is go-cty's to decode.
func unmarshalDynamic(b []byte) (cty.Value, error) {
	if len(b) > 2 && b[0] == 0x92 { // fixarray of two
		var n, at int
		switch c := b[1]; {
		case c >= 0xa0 && c <= 0xbf: // fixstr
			n, at = int(c&0x1f), 2
		case (c == 0xc4 || c == 0xd9) && len(b) > 2: // bin8, str8
			n, at = int(b[2]), 3
		case (c == 0xc5 || c == 0xda) && len(b) > 3: // bin16, str16
			n, at = int(b[2])<<8|int(b[3]), 4
		case (c == 0xc6 || c == 0xdb) && len(b) > 5: // bin32, str32
			n, at = int(b[2])<<24|int(b[3])<<16|int(b[4])<<8|int(b[5]), 6
		}
		if at > 0 && at+n <= len(b) {
			if ty, err := ctyjson.UnmarshalType(b[at : at+n]); err == nil {
				if v, err := ctymsgpack.Unmarshal(b[at+n:], ty); err == nil {
					return v, nil
				}
			}
		}
	}
	return ctymsgpack.Unmarshal(b, cty.DynamicPseudoType)
}

// encodePath encodes a path as a msgpack list of steps: strings for
// attributes, [key] one-element tuples for indexes.
func encodePath(path cty.Path) ([]byte, error) {
	steps := make([]cty.Value, len(path))
	for i, s := range path {
		switch s := s.(type) {
		case cty.GetAttrStep:
			steps[i] = cty.StringVal(s.Name)
		case cty.IndexStep:
			steps[i] = cty.TupleVal([]cty.Value{s.Key})
		}
	}
	return ctymsgpack.Marshal(cty.TupleVal(steps), cty.DynamicPseudoType)
}

func decodePath(b []byte) (cty.Path, error) {
	v, err := ctymsgpack.Unmarshal(b, cty.DynamicPseudoType)
	if err != nil {
		return nil, err
	}
	var path cty.Path
	for _, s := range v.AsValueSlice() {
		if s.Type() == cty.String {
			path = path.GetAttr(s.AsString())
		} else {
			path = path.Index(s.Index(cty.NumberIntVal(0)))
		}
	}
	return path, nil
}
