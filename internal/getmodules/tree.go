package getmodules

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/config"
)

// TreeEntry is a module call where `rig modules` shows it: its name in
// its module (Key), the source and version the manifest records for it
// (the call's source when it is not installed), its version constraint,
// and its place in the tree.
type TreeEntry struct {
	Key, Source, Version string
	Constraint           string
	Depth                int
	// Last says the call is the last of its module; AncestorsLast says,
	// for each enclosing level, whether that call was.
	Last          bool
	AncestorsLast []bool
}

// Tree lists the calls of cfg and of the modules below, depth first in
// name order, with the source and version manifest records for each
// installed one.
func Tree(cfg *config.Module, manifest Manifest) []TreeEntry {
	var out []TreeEntry
	var walk func(mod *config.Module, key string, depth int, ancestorsLast []bool)
	walk = func(mod *config.Module, key string, depth int, ancestorsLast []bool) {
		names := slices.Sorted(maps.Keys(mod.ModuleCalls))
		for i, name := range names {
			call := mod.ModuleCalls[name]
			full := name
			if key != "" {
				full = key + "." + name
			}
			e := TreeEntry{Key: name, Source: call.Source, Constraint: call.Version,
				Depth: depth, Last: i == len(names)-1, AncestorsLast: ancestorsLast}
			if rec, ok := manifest.Record(full); ok {
				e.Source, e.Version = rec.Source, rec.Version
			}
			out = append(out, e)
			if child := mod.Children[name]; child != nil {
				walk(child, full, depth+1, append(append([]bool(nil), ancestorsLast...), e.Last))
			}
		}
	}
	walk(cfg, "", 0, nil)
	return out
}

// WriteTree writes entries as `rig modules` shows them: a tree drawn with
// box-drawing lines, each call with its source and the installed version
// (and the constraint, when it says more).
func WriteTree(w io.Writer, entries []TreeEntry) {
	fmt.Fprint(w, "\nModules declared by configuration:\n.\n")
	for _, e := range entries {
		var prefix strings.Builder
		for d := 0; d < e.Depth; d++ {
			if e.AncestorsLast[d] {
				prefix.WriteString("    ")
			} else {
				prefix.WriteString("│   ")
			}
		}
		branch := "├── "
		if e.Last {
			branch = "└── "
		}
		line := fmt.Sprintf("%q[%s]", e.Key, e.Source)
		if e.Version != "" {
			line += " " + e.Version
			if e.Constraint != "" && e.Constraint != e.Version {
				line += " (" + e.Constraint + ")"
			}
		}
		fmt.Fprintf(w, "%s%s%s\n", prefix.String(), branch, line)
	}
	fmt.Fprintln(w)
}
