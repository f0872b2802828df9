package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// repetitionConflict returns the error for a block that sets more than one
// of count, for_each and lifecycle.enabled (given by the ranges of their
// names, zero when not set), worded as OpenTofu 1.12 words it for the kind
// of objects the block makes ("resources", "data sources", "module
// instances"); nil when at most one is set.
func repetitionConflict(count, forEach, enabled hcl.Range, objects string) *hcl.Diagnostic {
	type arg struct {
		name string
		rng  hcl.Range
	}
	var set []arg
	for _, a := range []arg{{`"count"`, count}, {`"enabled"`, enabled}, {`"for_each"`, forEach}} {
		if a.rng != (hcl.Range{}) {
			set = append(set, a)
		}
	}
	if len(set) < 2 {
		return nil
	}
	names := make([]string, len(set))
	for i, a := range set {
		names[i] = a.name
	}
	list := strings.Join(names, " and ")
	if len(names) > 2 {
		names[len(names)-1] = "and " + names[len(names)-1]
		list = strings.Join(names, ", ")
	}
	slices.SortStableFunc(set, func(a, b arg) int { return a.rng.Start.Byte - b.rng.Start.Byte })
	rng := hcl.RangeBetween(set[0].rng, set[len(set)-1].rng)
	verb := "may"
	if objects == "module instances" {
		verb = "should"
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid combination of %s", list),
		Detail:   fmt.Sprintf("The %s meta-arguments are mutually-exclusive. Only one %s be used to be explicit about the number of %s to be created.", list, verb, objects),
		Subject:  &rng,
	}
}
