package workdir

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/state"
)

// WriteProviderTree writes the providers mod requires (`rig providers`), with their version
// constraints, then its child modules' subtrees, each line after prefix.
func WriteProviderTree(w io.Writer, mod *config.Module, prefix string) diag.Diagnostics {
	reqs, ds := ProviderRequirements(mod)
	cons := map[addrs.Provider]getproviders.Constraints{}
	for _, r := range reqs {
		cons[r.Provider] = r.Constraints
	}
	var lines []string
	for _, p := range RequiredProviders(mod) {
		line := "provider[" + p.String() + "]"
		if c := cons[p]; len(c) > 0 {
			line += " " + c.String()
		}
		lines = append(lines, line)
	}
	children := slices.Sorted(maps.Keys(mod.Children))
	n := len(lines) + len(children)
	branch := func(i int) (string, string) {
		if i == n-1 {
			return "└── ", "    "
		}
		// The continuation is "│", two no-break spaces and a space, as
		// terraform prints it.
		return "├── ", "│\u00a0\u00a0 "
	}
	for i, l := range lines {
		b, _ := branch(i)
		fmt.Fprintf(w, "%s%s%s\n", prefix, b, l)
	}
	for j, name := range children {
		b, next := branch(len(lines) + j)
		fmt.Fprintf(w, "%s%smodule.%s\n", prefix, b, name)
		ds = ds.Append(WriteProviderTree(w, mod.Children[name], prefix+next))
	}
	return ds
}

// StateProviders returns the providers of the resources s records, each
// once, sorted by address.
func StateProviders(s *state.State) []addrs.Provider {
	var out []addrs.Provider
	for _, r := range s.Resources {
		out = append(out, r.ProviderConfig.Provider)
	}
	slices.SortFunc(out, addrs.Provider.Compare)
	return slices.Compact(out)
}

// WriteStateProviders writes the providers of the resources s records, as
// OpenTofu's providers command lists them after the configuration's tree
// (a blank line between them); nothing when s records no resource.
func WriteStateProviders(w io.Writer, s *state.State) {
	if s == nil || len(s.Resources) == 0 {
		return
	}
	fmt.Fprint(w, "\nProviders required by state:\n\n")
	for i, p := range StateProviders(s) {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "    provider[%s]\n", p)
	}
}

// UsedProviders returns the providers the configuration cfg requires and
// those the resources s records (s may be nil), each once, sorted by
// address: those `providers schema` describes.
func UsedProviders(cfg *config.Module, s *state.State) []addrs.Provider {
	used := TreeRequiredProviders(cfg)
	if s != nil {
		used = append(used, StateProviders(s)...)
	}
	slices.SortFunc(used, addrs.Provider.Compare)
	return slices.Compact(used)
}
