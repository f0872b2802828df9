package providertest

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// Provider is the fake provider. Create it with New. All methods are safe for
// concurrent use, including the fault-injection and inspection methods while
// operations run.
type Provider struct {
	// Reads and Plans record the ReadResource and PlanResourceChange
	// calls in flight, and can hold them at a barrier.
	Reads, Plans InFlight

	// mu guards every field below. It is never held while an apply sleeps or blocks.
	mu sync.Mutex
	// seq is the last sequence number handed out (see Op).
	seq int
	// lastID is the N of the last "id-N" allocated.
	lastID int
	// ops holds every apply in start order; ops[i].End is set when it returns.
	ops []Op
	// live maps the id of each existing object to it.
	live map[string]*liveObject
	// names maps each name held by a live object to that object's id.
	names map[string]string
	// order is the counter behind liveObject.order.
	order int
	// calls records every function call in order.
	calls []FunctionCall
	// configured holds the region of each Instance configured, in order.
	configured []string

	fails     map[opKey]int
	throttles map[opKey]int
	partials  map[opKey]int
	sleeps    map[opKey]time.Duration
	sleepAll  time.Duration
	blocks    map[opKey]chan struct{}
	started   map[opKey]chan struct{}

	// stop is closed by Stop; ConfigureProvider replaces a closed one.
	stop   chan struct{}
	stops  []int
	closes []int
	// ephemerals records the test_token calls (ephemeral.go).
	ephemerals []EphemeralCall
}

var _ provider.Interface = (*Provider)(nil)

// opKey identifies the applies a fault applies to: those of one key and action.
type opKey struct {
	key    string
	action Action
}

// New returns a provider with no live objects, no recorded operations and no faults.
func New() *Provider {
	return &Provider{
		live:      map[string]*liveObject{},
		names:     map[string]string{},
		fails:     map[opKey]int{},
		throttles: map[opKey]int{},
		partials:  map[opKey]int{},
		sleeps:    map[opKey]time.Duration{},
		blocks:    map[opKey]chan struct{}{},
		started:   map[opKey]chan struct{}{},
		stop:      make(chan struct{}),
	}
}

// Factory returns a factory that always returns p itself, so a test can
// inspect what the engine did through p.
func (p *Provider) Factory() provider.Factory {
	return func() (provider.Interface, error) { return p, nil }
}

// Factories returns p's Factory registered under Address().
func (p *Provider) Factories() provider.Factories {
	return provider.Factories{Address(): p.Factory()}
}

// GetProviderSchema returns Schemas().
func (p *Provider) GetProviderSchema(context.Context) (*provider.Schemas, diag.Diagnostics) {
	return Schemas(), nil
}

// ValidateProviderConfig accepts the empty configuration.
func (p *Provider) ValidateProviderConfig(context.Context, cty.Value) diag.Diagnostics { return nil }

// Refused is the value that the validation calls refuse, as a real
// provider's validators refuse what is out of range: a resource's value
// (ValidateResourceConfig) or a test_token's name
// (ValidateEphemeralResourceConfig). The diagnostic carries the
// attribute's path.
const Refused = "invalid"

// ValidateResourceConfig rejects unknown resource types, settings of the
// computed attributes id and output, and a value of Refused.
func (p *Provider) ValidateResourceConfig(_ context.Context, typeName string, config cty.Value) diag.Diagnostics {
	if !knownType(typeName) {
		return unsupported("resource", typeName)
	}
	if config.IsNull() || !config.IsKnown() {
		return nil
	}
	var ds diag.Diagnostics
	for _, attr := range []string{"id", "output"} {
		if !config.GetAttr(attr).IsNull() {
			ds = ds.Append(diag.Errorf("Invalid resource configuration", "The %q attribute of %s is read-only.", attr, typeName))
		}
	}
	ds = ds.Append(refuse(config, "value"))
	return ds
}

// refuse returns the diagnostic of a known attribute name of config set
// to Refused, with the attribute's path; nil otherwise.
func refuse(config cty.Value, name string) diag.Diagnostics {
	v := config.GetAttr(name)
	if !v.IsKnown() || v.IsNull() || v.AsString() != Refused {
		return nil
	}
	return diag.Diagnostics{{Severity: diag.Error, Summary: "Invalid " + name,
		Detail: fmt.Sprintf("The %s %q is refused.", name, Refused), AttributePath: cty.GetAttrPath(name)}}
}

// ValidateDataResourceConfig rejects every data source: the provider has none.
func (p *Provider) ValidateDataResourceConfig(_ context.Context, typeName string, _ cty.Value) diag.Diagnostics {
	return unsupported("data source", typeName)
}

// ConfigureProvider accepts the empty configuration. It also clears the
// effect of an earlier Stop: a new run configures the provider again, as a
// real plugin would be started again.
func (p *Provider) ConfigureProvider(context.Context, provider.ConfigureRequest) diag.Diagnostics {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.stop:
		p.stop = make(chan struct{})
	default:
	}
	return nil
}

// UpgradeResourceState decodes a stored object; both types have only schema version 0.
func (p *Provider) UpgradeResourceState(_ context.Context, req provider.UpgradeRequest) provider.UpgradeResponse {
	if !knownType(req.TypeName) {
		return provider.UpgradeResponse{Diagnostics: unsupported("resource", req.TypeName)}
	}
	if req.Version != 0 {
		return provider.UpgradeResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Unsupported schema version",
			"%s has schema version 0; the stored object has version %d.", req.TypeName, req.Version)}}
	}
	v, err := ctyjson.Unmarshal(req.RawStateJSON, typeOf(req.TypeName))
	if err != nil {
		return provider.UpgradeResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Invalid stored object", "Decoding %s state: %s.", req.TypeName, err)}}
	}
	return provider.UpgradeResponse{UpgradedState: v}
}

// ReadResource returns the live object with the prior object's id, or a null
// object when no such object is live (it was deleted outside rig).
func (p *Provider) ReadResource(ctx context.Context, req provider.ReadRequest) provider.ReadResponse {
	if !knownType(req.TypeName) {
		return provider.ReadResponse{Diagnostics: unsupported("resource", req.TypeName)}
	}
	if err := p.Reads.Enter(ctx); err != nil {
		return provider.ReadResponse{Diagnostics: interrupted(err)}
	}
	defer p.Reads.Leave()
	if req.PriorState.IsNull() || !req.PriorState.IsKnown() {
		return provider.ReadResponse{NewState: req.PriorState, Private: req.Private}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	o, ok := p.live[str(req.PriorState, "id")]
	if !ok {
		return provider.ReadResponse{NewState: cty.NullVal(typeOf(req.TypeName))}
	}
	return provider.ReadResponse{NewState: o.State, Private: req.Private}
}

// PlanResourceChange plans a change. A create leaves id and output (and
// test_secret's password) unknown. A
// change of replace_key (prior non-null) returns RequiresReplace
// [replace_key] and plans as a create. Otherwise output is unknown when
// value changes and keeps its prior value when it does not. A delete plans
// the null object.
func (p *Provider) PlanResourceChange(ctx context.Context, req provider.PlanRequest) provider.PlanResponse {
	if !knownType(req.TypeName) {
		return provider.PlanResponse{Diagnostics: unsupported("resource", req.TypeName)}
	}
	if err := p.Plans.Enter(ctx); err != nil {
		return provider.PlanResponse{Diagnostics: interrupted(err)}
	}
	defer p.Plans.Leave()
	proposed := req.ProposedNewState
	if proposed.IsNull() || !proposed.IsKnown() {
		return provider.PlanResponse{PlannedState: proposed}
	}
	planned := proposed.AsValueMap()
	var resp provider.PlanResponse
	prior := req.PriorState
	switch {
	case prior.IsNull():
		planned["id"] = cty.UnknownVal(cty.String).RefineNotNull()
		planned["output"] = cty.UnknownVal(cty.String)
		if req.TypeName == SecretType {
			planned["password"] = cty.UnknownVal(cty.String)
		}
	case !prior.GetAttr("replace_key").RawEquals(planned["replace_key"]):
		resp.RequiresReplace = []cty.Path{cty.GetAttrPath("replace_key")}
		planned["id"] = cty.UnknownVal(cty.String).RefineNotNull()
		planned["output"] = cty.UnknownVal(cty.String)
		if req.TypeName == SecretType {
			planned["password"] = cty.UnknownVal(cty.String)
		}
	case !prior.GetAttr("value").RawEquals(planned["value"]):
		planned["output"] = cty.UnknownVal(cty.String)
	}
	resp.PlannedState = cty.ObjectVal(planned)
	resp.PlannedPrivate = req.PriorPrivate
	return resp
}

// ImportResourceState imports the live object with the given id.
func (p *Provider) ImportResourceState(_ context.Context, req provider.ImportRequest) provider.ImportResponse {
	if !knownType(req.TypeName) {
		return provider.ImportResponse{Diagnostics: unsupported("resource", req.TypeName)}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	o, ok := p.live[req.ID]
	if !ok || o.Type != req.TypeName {
		return provider.ImportResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Cannot import non-existent remote object",
			"%s object %s does not exist.", req.TypeName, req.ID)}}
	}
	return provider.ImportResponse{Imported: []provider.ImportedObject{{TypeName: req.TypeName, State: o.State}}}
}

// ReadDataSource fails: the provider has no data sources.
func (p *Provider) ReadDataSource(_ context.Context, req provider.ReadDataRequest) provider.ReadDataResponse {
	return provider.ReadDataResponse{Diagnostics: unsupported("data source", req.TypeName)}
}

// Stop makes every apply that is sleeping (SleepOn) or blocked (BlockOn)
// return at once with an error, and so will every such apply started later,
// until ConfigureProvider is called again. Applies without a sleep or block
// are not affected. The call is recorded (see Stops).
func (p *Provider) Stop(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	p.stops = append(p.stops, p.seq)
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	return nil
}

// Close records the call (see Closes) and otherwise does nothing: the
// provider stays usable, since Factory hands the same instance to every caller.
func (p *Provider) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	p.closes = append(p.closes, p.seq)
	return nil
}

func interrupted(err error) diag.Diagnostics {
	return diag.Diagnostics{diag.Errorf("Call interrupted", "The call was held at a barrier until its context ended: %s.", err)}
}

func unsupported(kind, typeName string) diag.Diagnostics {
	return diag.Diagnostics{diag.Errorf("Unsupported "+kind+" type", "The test provider has no %s type %q.", kind, typeName)}
}

// MoveResourceState reports that the in-process test provider takes no
// objects of other resource types.
func (p *Provider) MoveResourceState(_ context.Context, req provider.MoveRequest) provider.MoveResponse {
	return provider.MoveResponse{Diagnostics: unsupported("move to resource type", req.TargetTypeName)}
}

// ValidateListResourceConfig reports that the in-process test provider
// has no list resource types.
func (p *Provider) ValidateListResourceConfig(_ context.Context, typeName string, _ cty.Value) diag.Diagnostics {
	return unsupported("list resource", typeName)
}

// ListResource reports that the in-process test provider has no list
// resource types (the plugin test provider has).
func (p *Provider) ListResource(_ context.Context, req provider.ListRequest, _ func(provider.ListedObject)) diag.Diagnostics {
	return unsupported("list resource", req.TypeName)
}
