package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestReadsRunAtTheAdaptiveLimit: when the provider set adapts, reads run
// as many at once as the provider configuration's limiter allows — past
// -parallelism when the user set none (the set's ceiling is higher), for
// the instances of one resource and for distinct resources alike — and
// never past an explicit -parallelism. The limiter's clock stands still,
// so its limit only grows; each read is held until the limit's worth of
// reads wait together, which a plan capped lower never reaches (it then
// fails when its context ends: a guard against hanging, not a
// measurement of time).
func TestReadsRunAtTheAdaptiveLimit(t *testing.T) {
	counted := `
resource "test_thing" "a" {
  count = 80
  key   = "a${count.index}"
}`
	var distinct strings.Builder
	for i := range 32 {
		fmt.Fprintf(&distinct, "resource \"test_thing\" \"r%d\" {\n  key = \"r%d\"\n}\n", i, i)
	}
	tests := []struct {
		name    string
		src     string
		ceiling int // the set's: an explicit -parallelism, or the default read ceiling
		// want is how many reads are held until they are in flight
		// together; exact, that many is the most there ever were.
		want  int
		exact bool
	}{
		{name: "instances of one resource past the default parallelism", src: counted, ceiling: provider.DefaultReadCeiling, want: 16},
		{name: "distinct resources past the default parallelism", src: distinct.String(), ceiling: provider.DefaultReadCeiling, want: 16},
		{name: "never past an explicit parallelism", src: counted, ceiling: 10, want: 10, exact: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			live := providertest.New()
			cfg := loadTree(t, map[string]string{"main.tf": tt.src})
			prior := applyAll(t, live, cfg)
			live.Reads.HoldUntil(tt.want)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			set := providerSet(live)
			defer set.Close()
			set.Adapt(provider.Adaptive{Ceiling: tt.ceiling, Initial: 16, Now: func() time.Time { return fixedNow }})
			_, ds := planner.Make(ctx, cfg, prior, set, planner.Options{Parallelism: 10, Now: func() time.Time { return fixedNow }})
			if ds.HasErrors() {
				t.Fatalf("plan: %v (the reads never had %d in flight at once)", ds.Err(), tt.want)
			}
			if got := live.Reads.Max(); got < tt.want || tt.exact && got != tt.want {
				t.Errorf("%d reads in flight at once, want %d", got, tt.want)
			}
			if n := live.Reads.Total(); n != len(prior.Objects()) {
				t.Errorf("%d reads, want one per object (%d)", n, len(prior.Objects()))
			}
		})
	}
}
