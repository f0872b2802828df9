package provider_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// configureCounter is the test provider, counting ConfigureProvider calls.
type configureCounter struct {
	*providertest.Provider
	configured *int
}

func (p configureCounter) ConfigureProvider(ctx context.Context, req provider.ConfigureRequest) diag.Diagnostics {
	*p.configured++
	return p.Provider.ConfigureProvider(ctx, req)
}

// TestSetFunctions checks that provider functions are served, without
// configuring anything, by the instance the schemas came from, which a
// configuration then takes over: one instance in all.
func TestSetFunctions(t *testing.T) {
	ctx := context.Background()
	starts, configured := 0, 0
	live := providertest.New()
	set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) {
		starts++
		return configureCounter{live, &configured}, nil
	}})
	defer set.Close()

	fns, ds := set.Functions(ctx, providertest.Address())
	if ds.HasErrors() || len(fns) != 2 || fns["join"].VariadicParameter == nil {
		t.Fatalf("Functions = %v, %v", fns, ds.Err())
	}
	got, err := set.CallFunction(ctx, providertest.Address(), "upper", []cty.Value{cty.StringVal("abc")})
	if err != nil || !got.RawEquals(cty.StringVal("ABC")) {
		t.Errorf("upper(\"abc\") = %#v, %v", got, err)
	}
	_, err = set.CallFunction(ctx, providertest.Address(), "upper", []cty.Value{cty.StringVal("")})
	var fe *provider.FunctionError
	if !errors.As(err, &fe) || fe.Argument == nil || *fe.Argument != 0 {
		t.Errorf("upper(\"\") error = %v, want a FunctionError about argument 0", err)
	}
	if configured != 0 {
		t.Errorf("calling functions configured the provider %d times", configured)
	}

	pc := addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: providertest.Address()}
	if _, ds := set.Configured(ctx, pc, func(*provider.Schemas) (cty.Value, diag.Diagnostics) { return cty.EmptyObjectVal, nil }); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if _, err := set.CallFunction(ctx, providertest.Address(), "join", []cty.Value{cty.StringVal("-"), cty.StringVal("a"), cty.StringVal("b")}); err != nil {
		t.Errorf("join after configuring: %v", err)
	}
	if starts != 1 || configured != 1 {
		t.Errorf("%d instances started, %d configured; want 1 and 1", starts, configured)
	}

	if _, ds := set.Functions(ctx, addrs.NewDefaultProvider("nope")); !ds.HasErrors() {
		t.Error("Functions of a provider that is not available succeeded")
	}
	if _, err := set.CallFunction(ctx, addrs.NewDefaultProvider("nope"), "f", nil); err == nil {
		t.Error("CallFunction of a provider that is not available succeeded")
	}
}

// TestSetLoadStartsProvidersAtOnce: Load starts its providers at once —
// each factory here waits until all three have been called, which would
// never happen one after another — and skips providers it has no factory for.
func TestSetLoadStartsProvidersAtOnce(t *testing.T) {
	ctx := context.Background()
	var wg sync.WaitGroup
	wg.Add(3)
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	factories := provider.Factories{}
	var ps []addrs.Provider
	for _, name := range []string{"a", "b", "c"} {
		p := addrs.NewDefaultProvider(name)
		ps = append(ps, p)
		factories[p] = func() (provider.Interface, error) {
			wg.Done()
			select {
			case <-all:
			case <-time.After(time.Minute):
				return nil, errors.New("the other providers were not started meanwhile")
			}
			return providertest.New(), nil
		}
	}
	set := provider.NewSet(factories)
	defer set.Close()
	set.Load(ctx, append(ps, addrs.NewDefaultProvider("unavailable")))
	for _, p := range ps {
		if _, ds := set.Schemas(ctx, p); ds.HasErrors() {
			t.Errorf("%s: %v", p, ds.Err())
		}
	}
}

// TestSetForget configures a provider configuration anew after Forget
// selects it, with the configuration's value of that time, and leaves the
// others configured as they were.
func TestSetForget(t *testing.T) {
	ctx := context.Background()
	configured := 0
	live := providertest.New()
	set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) {
		return configureCounter{live, &configured}, nil
	}})
	defer set.Close()
	eu := addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: providertest.Address(), Alias: "eu"}
	us := addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: providertest.Address(), Alias: "us"}
	configure := func(pc addrs.AbsProviderConfig) {
		t.Helper()
		if _, ds := set.Configured(ctx, pc, func(*provider.Schemas) (cty.Value, diag.Diagnostics) { return cty.EmptyObjectVal, nil }); ds.HasErrors() {
			t.Fatal(ds.Err())
		}
	}
	configure(eu)
	configure(us)
	set.Forget(func(pc addrs.AbsProviderConfig) bool { return pc.Alias == "eu" })
	configure(eu)
	configure(us)
	if configured != 3 {
		t.Errorf("configured %d times, want 3: eu twice, us once", configured)
	}
}
