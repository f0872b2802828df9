package plan

import (
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/zclconf/go-cty/cty"
)

// ResourceValues supplies the value of a whole resource (an object, a tuple
// for count, an object for for_each) to expressions that reference it.
type ResourceValues interface {
	ResourceValue(addr addrs.Resource) cty.Value
}

// Evaluator evaluates the root module's expressions for one plan or apply:
// input variables, local values (each computed once, on first use) and
// resources read from a ResourceValues source. It is safe for concurrent use;
// callers must only evaluate an expression once everything it references
// is final (the graph walk guarantees that).
type Evaluator struct {
	Config    *config.Module
	Variables map[string]cty.Value
	Resources ResourceValues
	Workspace string
	Timestamp time.Time
	RootDir   string
	// Functions are the provider-defined functions expressions may call
	// (see ProviderFunctions); nil means none.
	Functions *lang.ProviderFunctions

	mu     sync.Mutex
	locals map[string]*localEntry
}

type localEntry struct {
	once  sync.Once
	val   cty.Value
	diags diag.Diagnostics
}

var _ lang.Data = (*Evaluator)(nil)

// Scope returns a scope for expressions of one resource instance (or of the
// module when inst is the zero value).
func (e *Evaluator) Scope(inst lang.InstanceData) *lang.Scope {
	return &lang.Scope{
		Data:              e,
		ModuleDir:         e.modDir(),
		RootDir:           e.modDir(),
		Cwd:               e.RootDir,
		Workspace:         e.Workspace,
		Instance:          inst,
		PlanTimestamp:     e.Timestamp,
		ProviderFunctions: e.Functions,
	}
}

func (e *Evaluator) modDir() string {
	if e.Config.SourceDir == "" {
		return "."
	}
	return e.Config.SourceDir
}

// InputVariable returns the final value of a root input variable.
func (e *Evaluator) InputVariable(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	v, ok := e.Variables[name]
	if !ok {
		return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared input variable",
			fmt.Sprintf("An input variable with the name %q has not been declared.", name))}
	}
	return v, nil
}

// LocalValue returns a local value, evaluating it on first use.
func (e *Evaluator) LocalValue(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	l, ok := e.Config.Locals[name]
	if !ok {
		return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared local value",
			fmt.Sprintf("A local value with the name %q has not been declared.", name))}
	}
	e.mu.Lock()
	if e.locals == nil {
		e.locals = map[string]*localEntry{}
	}
	ent := e.locals[name]
	if ent == nil {
		ent = &localEntry{}
		e.locals[name] = ent
	}
	e.mu.Unlock()
	ent.once.Do(func() {
		ent.val, ent.diags = e.Scope(lang.InstanceData{}).EvalExpr(l.Expr, cty.DynamicPseudoType)
		if ent.diags.HasErrors() {
			ent.val = cty.DynamicVal
		}
	})
	// Report a local's own errors once, where it is declared, not at every reference.
	return ent.val, nil
}

// LocalDiagnostics returns the diagnostics of evaluating a local value (evaluating it if needed).
func (e *Evaluator) LocalDiagnostics(name string) diag.Diagnostics {
	l, ok := e.Config.Locals[name]
	if !ok {
		return nil
	}
	_, _ = e.LocalValue(name, l.DeclRange)
	e.mu.Lock()
	ent := e.locals[name]
	e.mu.Unlock()
	return ent.diags
}

// Resource returns the value of a whole resource.
func (e *Evaluator) Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	return e.Resources.ResourceValue(addr), nil
}
