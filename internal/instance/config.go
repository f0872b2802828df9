package instance

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// Config is a resource instance's configuration, evaluated.
type Config struct {
	// Marked is the value as evaluated, with its marks: diagnostics
	// redact what it marks sensitive.
	Marked cty.Value
	// Value is the value without marks, as providers see it.
	Value cty.Value
	// Marks are the paths Marked marks (with the provider's echoed
	// attributes), put back on what the provider returns.
	Marks []cty.PathValueMarks
}

// EvalConfig evaluates r's body in scope against the schema sch of
// provider configuration pc.
func EvalConfig(scope *lang.Scope, r *config.Resource, sch provider.Schema, pc addrs.AbsProviderConfig) (Config, diag.Diagnostics) {
	marked, hasMarks, ds := scope.EvalBlockMarked(r.Config, sch.Block.DecoderSpec())
	hasMarks = hasMarks && !ds.HasErrors()
	if hasMarks {
		ds = ds.Append(eval.EphemeralArguments(sch.Block, marked, r.Config, r.DeclRange))
	}
	if ds.HasErrors() {
		return Config{}, ds
	}
	// Providers see values without marks; the result gets the
	// configuration's sensitive marks back, for state and for dependents
	// (not its ephemeral ones: only write-only arguments hold them, and
	// those are never planned).
	v, ms := marked, []cty.PathValueMarks(nil)
	if hasMarks {
		v, ms = marked.UnmarkDeepWithPaths()
		ms = marks.WithoutEphemeralPaths(ms)
	}
	return Config{Marked: marked, Value: v, Marks: plan.WithEchoedMarks(pc.Provider, r.Addr.Type, ms)}, ds
}
