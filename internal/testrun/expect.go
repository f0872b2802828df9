package testrun

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// checkable is a checkable object a condition failure comes from, or an
// expect_failures entry names.
type checkable struct {
	// kind is "var", "output", "check" or "resource".
	kind string
	name string
	// target is the resource or instance of a "resource" entry.
	target addrs.Target
}

// expectation is a run's expect_failures: each entry and whether a failure
// of it was seen.
type expectation struct {
	entries []expected
}

type expected struct {
	obj  checkable
	rng  hcl.Range
	text string
	seen bool
}

func newExpectation(run *config.TestRun) *expectation {
	e := &expectation{}
	for _, t := range run.ExpectFailures {
		ex := expected{rng: t.SourceRange(), text: lang.TraversalString(t)}
		switch root := t.RootName(); root {
		case "var", "output", "check":
			if a, ok := t[1].(hcl.TraverseAttr); ok {
				ex.obj = checkable{kind: root, name: a.Name}
			}
		default:
			target, err := addrs.ParseTarget(t)
			if err != nil {
				continue
			}
			ex.obj = checkable{kind: "resource", target: target}
		}
		e.entries = append(e.entries, ex)
	}
	return e
}

// match marks and reports the entries a failure of obj (at the resource
// instance inst, for a resource) satisfies.
func (e *expectation) match(obj checkable, inst string) bool {
	hit := false
	for i := range e.entries {
		ex := &e.entries[i]
		if ex.obj.kind != obj.kind {
			continue
		}
		switch obj.kind {
		case "resource":
			if inst == "" {
				// A failure that does not name its instance: any
				// instance of the resource (obj.name) is expected.
				ar, err := addrs.ParseAbsResourceStr(obj.name)
				if err != nil || ex.obj.target.Kind == addrs.ModuleTarget || ex.obj.target.Resource != ar.Resource || !ex.obj.target.Module.IsRoot() {
					continue
				}
				break
			}
			ai, err := addrs.ParseAbsResourceInstanceStr(inst)
			if err != nil || !ai.Module.IsRoot() || !ex.obj.target.ContainsInstance(ai) {
				continue
			}
		default:
			if ex.obj.name != obj.name {
				continue
			}
		}
		ex.seen, hit = true, true
	}
	return hit
}

// expects reports whether an entry names variable name.
func (e *expectation) expectsVariable(name string) bool {
	for _, ex := range e.entries {
		if ex.obj.kind == "var" && ex.obj.name == name {
			return true
		}
	}
	return false
}

// filter returns the diagnostics of a plan or an apply as the run judges
// them: failures of the module's conditions that the run expects are
// dropped; failed check assertions, warnings elsewhere, are errors unless
// expected; and each expected failure that did not happen is an error.
func (e *expectation) filter(ds diag.Diagnostics, origins *ruleOrigins) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range ds {
		obj, root, ok := origins.of(d)
		if !ok {
			out = append(out, d)
			continue
		}
		if obj.kind == "check" {
			if root && e.match(obj, "") {
				continue
			}
			d.Severity = diag.Error
			out = append(out, d)
			continue
		}
		if d.Severity == diag.Error && root && e.match(obj, d.AddressText()) {
			continue
		}
		out = append(out, d)
	}
	for _, ex := range e.entries {
		if !ex.seen {
			out = append(out, diag.At(ex.rng, "Missing expected failure",
				fmt.Sprintf("The checkable object, %s, was expected to report an error but did not.", ex.text)))
		}
	}
	return out
}

// planWarnings returns the diagnostics of an apply run's plan with a
// warning for each expected variable failure among them: the plan failed,
// so the apply cannot run and the run fails however expected that was.
func (e *expectation) planWarnings(ds diag.Diagnostics, origins *ruleOrigins) diag.Diagnostics {
	out := ds
	for _, d := range ds {
		obj, root, ok := origins.of(d)
		if ok && root && obj.kind == "var" && d.Severity == diag.Error && e.expectsVariable(obj.name) {
			out = append(out, diag.Diagnostic{Severity: diag.Warning, Summary: "Invalid Variable in test file",
				Detail: fmt.Sprintf("Variable var.%s, has an invalid value within the test. Although this was an expected failure, it has meant the apply stage was unable to run so the overall test will fail.", obj.name)})
		}
	}
	return out
}

// withoutCheckWarnings drops the check block failures of a plan: the
// apply evaluates the checks again and reports what still fails.
func withoutCheckWarnings(ds diag.Diagnostics, origins *ruleOrigins) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range ds {
		if obj, _, ok := origins.of(d); ok && obj.kind == "check" {
			continue
		}
		out = append(out, d)
	}
	return out
}

// ruleOrigins finds the checkable object a condition failure comes from:
// the engine reports each at its condition (a variable's at its
// declaration), with a summary that says which kind of rule failed.
type ruleOrigins struct {
	byRange map[rangeKey]origin
}

type origin struct {
	obj  checkable
	root bool
	// summaries are the summaries of the rule's failures.
	summaries []string
}

var (
	variableFailure = []string{"Invalid value for variable"}
	outputFailure   = []string{"Module output value precondition failed"}
	preFailure      = []string{"Resource precondition failed"}
	postFailure     = []string{"Resource postcondition failed"}
	// A check assertion unknown until apply fails a plan run.
	checkFailure = []string{"Check block assertion failed", "Check block assertion known after apply"}
)

type rangeKey struct {
	file       string
	start, end int
}

func keyOf(r hcl.Range) rangeKey { return rangeKey{r.Filename, r.Start.Byte, r.End.Byte} }

func newRuleOrigins(cfg *config.Module) *ruleOrigins {
	o := &ruleOrigins{byRange: map[rangeKey]origin{}}
	for _, m := range cfg.AllModules() {
		root := m.Path.IsRoot()
		for name, v := range m.Variables {
			o.byRange[keyOf(v.DeclRange)] = origin{obj: checkable{kind: "var", name: name}, root: root, summaries: variableFailure}
			for _, rule := range v.Validations {
				o.byRange[keyOf(rule.Condition.Range())] = origin{obj: checkable{kind: "var", name: name}, root: root, summaries: variableFailure}
			}
		}
		for name, out := range m.Outputs {
			for _, rule := range out.Preconditions {
				o.byRange[keyOf(rule.Condition.Range())] = origin{obj: checkable{kind: "output", name: name}, root: root, summaries: outputFailure}
			}
		}
		for _, r := range m.Resources() {
			obj := checkable{kind: "resource", name: r.Addr.String()}
			for _, rule := range r.Preconditions {
				o.byRange[keyOf(rule.Condition.Range())] = origin{obj: obj, root: root, summaries: preFailure}
			}
			for _, rule := range r.Postconditions {
				o.byRange[keyOf(rule.Condition.Range())] = origin{obj: obj, root: root, summaries: postFailure}
			}
		}
		for _, c := range m.Checks {
			for _, rule := range c.Asserts {
				o.byRange[keyOf(rule.Condition.Range())] = origin{obj: checkable{kind: "check", name: c.Name}, root: root, summaries: checkFailure}
			}
		}
	}
	return o
}

// of returns the object whose condition d reports the failure of, and
// whether it is in the root module.
func (o *ruleOrigins) of(d diag.Diagnostic) (checkable, bool, bool) {
	if d.Subject == nil {
		return checkable{}, false, false
	}
	or, ok := o.byRange[keyOf(*d.Subject)]
	if !ok || !slices.Contains(or.summaries, d.Summary) {
		return checkable{}, false, false
	}
	return or.obj, or.root, true
}
