package planner_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// listedType is a managed resource type with an identity, and a list
// resource type of the same name, that listingProvider offers.
const listedType = "test_listed"

// listingProvider is the test provider with the list resource type
// test_listed: listing with config prefix P finds P-1 and P-2 after
// latency, and fails for prefix "fail". Its calls
// are counted in calls; a call whose config sets after waits until the
// call listing that prefix has returned.
type listingProvider struct {
	echoProvider
	calls *providertest.InFlight
	// latency is how long each listing takes, as a remote API's would.
	latency time.Duration

	mu       *sync.Mutex
	finished map[string]chan struct{} // by prefix, closed when its listing returns
}

func newListingProvider() listingProvider {
	return listingProvider{echoProvider: echoProvider{Provider: providertest.New()}, calls: &providertest.InFlight{},
		mu: &sync.Mutex{}, finished: map[string]chan struct{}{}}
}

func (p listingProvider) GetProviderSchema(ctx context.Context) (*provider.Schemas, diag.Diagnostics) {
	s, ds := p.echoProvider.GetProviderSchema(ctx)
	id := &provider.Block{Attributes: map[string]*provider.Attribute{"id": {Type: cty.String, Required: true}}}
	s.ResourceTypes[listedType] = provider.Schema{Block: &provider.Block{Attributes: map[string]*provider.Attribute{
		"id": {Type: cty.String, Computed: true},
	}}, Identity: id}
	s.ListResources = map[string]provider.Schema{listedType: {Block: &provider.Block{Attributes: map[string]*provider.Attribute{
		"prefix": {Type: cty.String, Required: true},
		"after":  {Type: cty.String, Optional: true},
	}}}}
	return s, ds
}

func (p listingProvider) ValidateListResourceConfig(ctx context.Context, typeName string, cfg cty.Value) diag.Diagnostics {
	if typeName == listedType {
		return nil
	}
	return p.echoProvider.ValidateListResourceConfig(ctx, typeName, cfg)
}

// done returns the channel closed once the listing of prefix returns.
func (p listingProvider) done(prefix string) chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch := p.finished[prefix]
	if ch == nil {
		ch = make(chan struct{})
		p.finished[prefix] = ch
	}
	return ch
}

// finish closes the channel of prefix, once.
func (p listingProvider) finish(prefix string) {
	ch := p.done(prefix)
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

func (p listingProvider) ListResource(ctx context.Context, req provider.ListRequest, emit func(provider.ListedObject)) diag.Diagnostics {
	if req.TypeName != listedType {
		return p.echoProvider.ListResource(ctx, req, emit)
	}
	prefix := req.Config.GetAttr("prefix").AsString()
	if err := p.calls.Enter(ctx); err != nil {
		return diag.Diagnostics{diag.Errorf("Listing interrupted", "Listing %s: %s.", prefix, err)}
	}
	defer p.calls.Leave()
	time.Sleep(p.latency)
	if prefix == "fail" {
		return diag.Diagnostics{diag.Errorf("Listing failed", "The test provider fails to list prefix %q.", prefix)}
	}
	if after := req.Config.GetAttr("after"); !after.IsNull() {
		select {
		case <-p.done(after.AsString()):
		case <-ctx.Done():
			return diag.Diagnostics{diag.Errorf("Listing interrupted", "Listing %s waited for %s: %s.", prefix, after.AsString(), ctx.Err())}
		}
	}
	defer p.finish(prefix)
	for i := 1; i <= 2; i++ {
		id := fmt.Sprintf("%s-%d", prefix, i)
		emit(provider.ListedObject{Identity: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id)}), DisplayName: id})
	}
	return nil
}

// queryHooks records what a query's hooks hear, one line a call.
type queryHooks struct {
	mu    sync.Mutex
	heard []string
}

func (h *queryHooks) PreList(res plan.ListResult, _ cty.Value) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.heard = append(h.heard, "start "+res.Addr.String())
}

func (h *queryHooks) PostList(res plan.ListResult) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.heard = append(h.heard, fmt.Sprintf("found %s %d", res.Addr, len(res.Objects)))
}

// runQuery loads main.tf and search.tfquery.hcl and queries them with
// the listing provider, failing the query that takes longer than 20 s.
func runQuery(t *testing.T, p listingProvider, query string, parallelism int) ([]plan.ListResult, []string, diag.Diagnostics) {
	t.Helper()
	files := fstest.MapFS{
		"main.tf":            {Data: []byte("provider \"test\" {}\n")},
		"search.tfquery.hcl": {Data: []byte(query)},
	}
	cfg, ds := config.LoadTreeFS(files, config.TreeOptions{QueryFiles: true})
	if ds.HasErrors() {
		t.Fatalf("configuration does not load: %v", ds.Err())
	}
	set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) { return p, nil }})
	defer set.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	hooks := &queryHooks{}
	res, ds := planner.Query(ctx, cfg, nil, set, planner.QueryOptions{Options: planner.Options{Parallelism: parallelism}, Hooks: hooks})
	return res, hooks.heard, ds
}

// Independent list blocks, and the instances of one, query their
// providers at once, up to the parallelism.
func TestQueryListsRunAtOnce(t *testing.T) {
	const query = `
list "test_listed" "a" {
  provider = test
  config {
    prefix = "a"
  }
}
list "test_listed" "b" {
  provider = test
  count    = 2
  config {
    prefix = "b${count.index}"
  }
}
list "test_listed" "c" {
  provider = test
  for_each = toset(["x", "y"])
  config {
    prefix = "c${each.key}"
  }
}
`
	for _, tc := range []struct {
		name        string
		parallelism int
		// hold is how many calls must be in flight before any goes on.
		hold int
	}{
		{name: "all five at once", parallelism: 10, hold: 5},
		{name: "two at a time", parallelism: 2, hold: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newListingProvider()
			p.calls.HoldUntil(tc.hold)
			res, _, ds := runQuery(t, p, query, tc.parallelism)
			if ds.HasErrors() {
				t.Fatalf("query: %v", ds.Err())
			}
			if len(res) != 5 || p.calls.Total() != 5 {
				t.Errorf("%d results, %d calls; want 5 of each", len(res), p.calls.Total())
			}
			if got := p.calls.Max(); got > tc.parallelism || got < min(tc.parallelism, 5) && tc.hold > 1 {
				t.Errorf("%d calls in flight at most, with parallelism %d", got, tc.parallelism)
			}
		})
	}
}

// Results and hook calls come in the blocks' dependency order (each block
// in file order, after the blocks it uses), instance by instance,
// whatever order the provider answers in; a block using another's results
// waits for it.
func TestQueryOrderDeterministic(t *testing.T) {
	// slow answers only after fast has; used lists from dep's results.
	const query = `
list "test_listed" "slow" {
  provider = test
  config {
    prefix = "slow"
    after  = "fast"
  }
}
list "test_listed" "used" {
  provider = test
  count    = 2
  config {
    prefix = list.test_listed.dep.data[count.index].identity.id
  }
}
list "test_listed" "fast" {
  provider = test
  config {
    prefix = "fast"
  }
}
list "test_listed" "dep" {
  provider = test
  config {
    prefix = "dep"
    after  = "slow"
  }
}
`
	p := newListingProvider()
	res, heard, ds := runQuery(t, p, query, 10)
	if ds.HasErrors() {
		t.Fatalf("query: %v", ds.Err())
	}
	want := []string{
		"start list.test_listed.slow", "found list.test_listed.slow 2",
		"start list.test_listed.dep", "found list.test_listed.dep 2",
		"start list.test_listed.used[0]", "found list.test_listed.used[0] 2",
		"start list.test_listed.used[1]", "found list.test_listed.used[1] 2",
		"start list.test_listed.fast", "found list.test_listed.fast 2",
	}
	if diff := cmp.Diff(want, heard); diff != "" {
		t.Errorf("hooks heard (-want +got):\n%s", diff)
	}
	var got []string
	for _, r := range res {
		ids := make([]string, 0, len(r.Objects))
		for _, o := range r.Objects {
			ids = append(ids, o.DisplayName)
		}
		got = append(got, r.Addr.String()+": "+strings.Join(ids, " "))
	}
	wantRes := []string{
		"list.test_listed.slow: slow-1 slow-2", "list.test_listed.dep: dep-1 dep-2",
		"list.test_listed.used[0]: dep-1-1 dep-1-2", "list.test_listed.used[1]: dep-2-1 dep-2-2",
		"list.test_listed.fast: fast-1 fast-2",
	}
	if diff := cmp.Diff(wantRes, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

// A block using the results of one that failed does not run; the others
// do, and the failure is reported once.
func TestQueryFailedListSkipsUsers(t *testing.T) {
	const query = `
list "test_listed" "bad" {
  provider = test
  config {
    prefix = "fail"
  }
}
list "test_listed" "user" {
  provider = test
  config {
    prefix = list.test_listed.bad.data[0].identity.id
  }
}
list "test_listed" "other" {
  provider = test
  config {
    prefix = "other"
  }
}
`
	p := newListingProvider()
	res, heard, ds := runQuery(t, p, query, 10)
	var summaries []string
	for _, d := range ds {
		summaries = append(summaries, d.Summary)
	}
	if !slices.Equal(summaries, []string{"Listing failed"}) {
		t.Errorf("diagnostics: %v", ds)
	}
	if len(res) != 1 || res[0].Addr.String() != "list.test_listed.other" {
		t.Errorf("results: %v", res)
	}
	want := []string{"start list.test_listed.bad", "start list.test_listed.other", "found list.test_listed.other 2"}
	if diff := cmp.Diff(want, heard); diff != "" {
		t.Errorf("hooks heard (-want +got):\n%s", diff)
	}
}

// BenchmarkQuerySlowLists queries ten list blocks, one with count = 5,
// against a provider whose every listing takes 50 ms, with the default
// parallelism (10).
func BenchmarkQuerySlowLists(b *testing.B) {
	var query strings.Builder
	for i := range 9 {
		fmt.Fprintf(&query, "list \"test_listed\" \"l%d\" {\n  provider = test\n  config {\n    prefix = \"l%d\"\n  }\n}\n", i, i)
	}
	query.WriteString("list \"test_listed\" \"counted\" {\n  provider = test\n  count = 5\n  config {\n    prefix = \"c${count.index}\"\n  }\n}\n")
	files := fstest.MapFS{"main.tf": {Data: []byte("provider \"test\" {}\n")}, "search.tfquery.hcl": {Data: []byte(query.String())}}
	cfg, ds := config.LoadTreeFS(files, config.TreeOptions{QueryFiles: true})
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	p := newListingProvider()
	p.latency = 50 * time.Millisecond
	set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) { return p, nil }})
	defer set.Close()
	for b.Loop() {
		res, ds := planner.Query(context.Background(), cfg, nil, set, planner.QueryOptions{})
		if ds.HasErrors() || len(res) != 14 {
			b.Fatalf("%d results: %v", len(res), ds.Err())
		}
	}
}

// An interrupted query queries no instance that had not started, and ends
// with an error.
func TestQueryInterrupted(t *testing.T) {
	const query = `
list "test_listed" "many" {
  provider = test
  count    = 3
  config {
    prefix = "m${count.index}"
  }
}
list "test_listed" "after" {
  provider = test
  config {
    prefix = list.test_listed.many[0].data[0].identity.id
  }
}
`
	files := fstest.MapFS{"main.tf": {Data: []byte("provider \"test\" {}\n")}, "search.tfquery.hcl": {Data: []byte(query)}}
	cfg, ds := config.LoadTreeFS(files, config.TreeOptions{QueryFiles: true})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	p := newListingProvider()
	release := p.calls.Block()
	defer release()
	set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) { return p, nil }})
	defer set.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for p.calls.Total() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	res, ds := planner.Query(ctx, cfg, nil, set, planner.QueryOptions{Options: planner.Options{Parallelism: 1}})
	var summaries []string
	for _, d := range ds {
		summaries = append(summaries, d.Summary)
	}
	if !slices.Equal(summaries, []string{"Listing interrupted", "Operation cancelled"}) || len(res) != 0 {
		t.Errorf("interrupted query: %d results, diagnostics %v", len(res), ds)
	}
	if n := p.calls.Total(); n != 1 {
		t.Errorf("%d listings after the interrupt, want only the one under way", n)
	}
}
