package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/plugin"
)

// callKind is one kind of provider call made for an object, told apart
// where the same RPC costs differently (a plan that creates, one that
// changes nothing).
type callKind uint8

const (
	callValidate callKind = iota
	callPlanCreate
	callApplyCreate
	callUpgrade
	callRead
	callPlanNoop
	callApplyDelete
)

// floorPhases are, for each phase of BenchmarkRealProviders, the calls
// made for each object: the chain of calls of each walk (a plan's, then an
// apply's). They are the calls rig makes (the benchmark's table of calls
// counts them from the providers' logs).
var floorPhases = map[string][][]callKind{
	"apply":               {{callValidate, callPlanCreate}, {callPlanCreate, callApplyCreate}},
	"plan":                {{callUpgrade, callRead, callValidate, callPlanNoop}},
	"plan -refresh=false": {{callUpgrade, callValidate, callPlanNoop}},
	"destroy":             {{callUpgrade, callRead}, {callApplyDelete}},
}

// floorResource is one resource type of the real-provider configuration:
// its provider, its type and the body of instance i's block, with any
// files it makes in dir.
type floorResource struct {
	provider string // hashicorp/TYPE
	typeName string
	body     func(dir string, i int) string
}

// floorObjects are the objects of one resource type the floor measurement
// works on, and what it knows of them.
type floorObjects struct {
	floorResource
	exe     string
	sch     provider.Schema
	configs []cty.Value
	planned []provider.PlanResponse
	objs    []cty.Value
	privs   [][]byte
}

// providerFloor measures the providers' floor: the least time a phase can
// take with them. It starts their processes at once (schema,
// configuration) and makes the calls the phase makes for each object
// (floorPhases), parallelism objects at a time, straight through rig's
// plugin client, with nothing else around the calls. The phases must be
// measured in the order of a lifecycle (apply first, destroy last): they
// work on the objects the apply created.
type providerFloor struct {
	res         []*floorObjects
	parallelism int
}

// newProviderFloor prepares n objects of each resource (exes: each
// resource's provider executable), their files in dir.
func newProviderFloor(ctx context.Context, rs []floorResource, exes []string, dir string, n, parallelism int) (*providerFloor, error) {
	f := &providerFloor{parallelism: parallelism}
	for i, r := range rs {
		p, err := startProvider(ctx, exes[i], r.provider)
		if err != nil {
			return nil, err
		}
		schemas, ds := p.GetProviderSchema(ctx)
		p.Close()
		if ds.HasErrors() {
			return nil, ds.Err()
		}
		sch, ok := schemas.ResourceTypes[r.typeName]
		if !ok {
			return nil, fmt.Errorf("%s has no resource type %s", r.provider, r.typeName)
		}
		o := &floorObjects{floorResource: r, exe: exes[i], sch: sch, configs: make([]cty.Value, n),
			planned: make([]provider.PlanResponse, n), objs: make([]cty.Value, n), privs: make([][]byte, n)}
		for j := range o.configs {
			if o.configs[j], err = decodeBody(r.body(dir, j), sch.Block); err != nil {
				return nil, err
			}
		}
		f.res = append(f.res, o)
	}
	return f, nil
}

// startProvider starts the provider prov (hashicorp/TYPE) from exe and
// configures it with an empty configuration.
func startProvider(ctx context.Context, exe, prov string) (*plugin.Provider, error) {
	p, err := plugin.Start(plugin.Meta{Path: exe, Provider: addrs.NewDefaultProvider(filepath.Base(prov))})
	if err != nil {
		return nil, err
	}
	schemas, ds := p.GetProviderSchema(ctx)
	if ds.HasErrors() {
		p.Close()
		return nil, ds.Err()
	}
	cfg, err := decodeBody("", schemas.Provider.Block)
	if err == nil {
		ds = ds.Append(p.ValidateProviderConfig(ctx, cfg))
		ds = ds.Append(p.ConfigureProvider(ctx, provider.ConfigureRequest{Config: cfg}))
		err = ds.Err()
	}
	if err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// measure runs one phase and returns what it took: the processes
// started at once, then each walk of the phase, its objects'
// chains of calls parallelism at a time, then the processes ended. Its CPU
// time is this process's (the plugin client's) and the providers'.
func (f *providerFloor) measure(ctx context.Context, phase string) (cliRun, error) {
	walks, ok := floorPhases[phase]
	if !ok {
		return cliRun{}, fmt.Errorf("no floor for phase %q", phase)
	}
	cpu0 := cpuTime()
	start := time.Now()
	provs := make([]*plugin.Provider, len(f.res))
	errs := make([]error, len(f.res))
	var wg sync.WaitGroup
	for i, o := range f.res {
		wg.Go(func() { provs[i], errs[i] = startProvider(ctx, o.exe, o.provider) })
	}
	wg.Wait()
	defer func() {
		for _, p := range provs {
			if p != nil {
				p.Close()
			}
		}
	}()
	for _, err := range errs {
		if err != nil {
			return cliRun{}, err
		}
	}
	type item struct{ res, obj int }
	var items []item
	for r, o := range f.res {
		for i := range o.configs {
			items = append(items, item{r, i})
		}
	}
	for _, chain := range walks {
		err := runParallel(len(items), f.parallelism, func(k int) error {
			it := items[k]
			for _, kind := range chain {
				if err := f.res[it.res].call(ctx, provs[it.res], kind, it.obj); err != nil {
					return fmt.Errorf("%s[%d]: %w", f.res[it.res].typeName, it.obj, err)
				}
			}
			return nil
		})
		if err != nil {
			return cliRun{}, err
		}
	}
	for i, p := range provs {
		p.Close()
		provs[i] = nil
	}
	return cliRun{wall: time.Since(start), cpu: cpuTime() - cpu0}, nil
}

// call makes one call of kind for object i through p.
func (o *floorObjects) call(ctx context.Context, p *plugin.Provider, kind callKind, i int) error {
	ty := o.sch.Block.ImpliedType()
	null := cty.NullVal(ty)
	switch kind {
	case callValidate:
		return p.ValidateResourceConfig(ctx, o.typeName, o.configs[i]).Err()
	case callPlanCreate:
		o.planned[i] = p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: o.typeName, PriorState: null,
			ProposedNewState: provider.ProposedNew(o.sch.Block, null, o.configs[i]), Config: o.configs[i]})
		return o.planned[i].Diagnostics.Err()
	case callApplyCreate:
		resp := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: o.typeName, PriorState: null,
			PlannedState: o.planned[i].PlannedState, Config: o.configs[i], PlannedPrivate: o.planned[i].PlannedPrivate})
		o.objs[i], o.privs[i] = resp.NewState, resp.Private
		return resp.Diagnostics.Err()
	case callUpgrade:
		raw, err := ctyjson.Marshal(o.objs[i], ty)
		if err != nil {
			return err
		}
		return p.UpgradeResourceState(ctx, provider.UpgradeRequest{TypeName: o.typeName, Version: int64(o.sch.Version), RawStateJSON: raw}).Diagnostics.Err()
	case callRead:
		resp := p.ReadResource(ctx, provider.ReadRequest{TypeName: o.typeName, PriorState: o.objs[i], Private: o.privs[i]})
		if !resp.Diagnostics.HasErrors() {
			o.objs[i], o.privs[i] = resp.NewState, resp.Private
		}
		return resp.Diagnostics.Err()
	case callPlanNoop:
		return p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: o.typeName, PriorState: o.objs[i],
			ProposedNewState: provider.ProposedNew(o.sch.Block, o.objs[i], o.configs[i]), Config: o.configs[i], PriorPrivate: o.privs[i]}).Diagnostics.Err()
	case callApplyDelete:
		return p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: o.typeName, PriorState: o.objs[i], PlannedState: null,
			Config: null, PlannedPrivate: o.privs[i]}).Diagnostics.Err()
	}
	return fmt.Errorf("unknown call kind %d", kind)
}

// runParallel calls fn for every i in [0, n), parallelism at a time, in
// order, and returns the first error.
func runParallel(n, parallelism int, fn func(i int) error) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	next := make(chan int)
	for range parallelism {
		wg.Go(func() {
			for i := range next {
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return first
}

// decodeBody decodes HCL body text against a schema block, as a
// configuration block would be decoded.
func decodeBody(src string, b *provider.Block) (cty.Value, error) {
	f, ds := hclsyntax.ParseConfig([]byte(src), "floor.tf", hcl.InitialPos)
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	v, ds := hcldec.Decode(f.Body, b.DecoderSpec(), nil)
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	return v, nil
}

func TestDecodeBody(t *testing.T) {
	b := &provider.Block{Attributes: map[string]*provider.Attribute{"a": {Type: cty.String, Optional: true}, "n": {Type: cty.Number, Optional: true}}}
	v, err := decodeBody(`a = "x"`, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.GetAttr("a"); !got.RawEquals(cty.StringVal("x")) || !v.GetAttr("n").IsNull() {
		t.Errorf("decoded %#v", v)
	}
}
