package command

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/workdir"
)

// runProviders prints the providers the configuration requires, as a tree
// of its modules, and those the state refers to, as `terraform providers`
// does.
func runProviders(m *Meta, args []string) int {
	fs := m.flagSet("providers")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The providers command takes no positional arguments. To run it in another working directory, use the global -chdir option.")
	}
	cfg, ds := m.loadConfig()
	if workdir.IsEmptyConfig(cfg) {
		ds = ds.Append(m.dir().NoConfigurationDiag("providers"))
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	fmt.Fprint(m.Out, "\nProviders required by configuration:\n.\n")
	ds = ds.Append(writeProviderTree(m.Out, cfg, ""))
	s, more := m.currentState()
	ds = ds.Append(more)
	if s != nil && len(s.Resources) > 0 {
		seen := map[addrs.Provider]bool{}
		var inState []string
		for _, r := range s.Resources {
			if p := r.ProviderConfig.Provider; !seen[p] {
				seen[p] = true
				inState = append(inState, p.String())
			}
		}
		sort.Strings(inState)
		fmt.Fprint(m.Out, "\nProviders required by state:\n\n")
		for _, p := range inState {
			fmt.Fprintf(m.Out, "    provider[%s]\n", p)
		}
	}
	fmt.Fprintln(m.Out)
	m.showDiagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	return 0
}

// writeProviderTree writes the providers mod requires, with their version
// constraints, then its child modules' subtrees, each line after prefix.
func writeProviderTree(w io.Writer, mod *config.Module, prefix string) diag.Diagnostics {
	reqs, ds := workdir.ProviderRequirements(mod)
	cons := map[addrs.Provider]getproviders.Constraints{}
	for _, r := range reqs {
		cons[r.Provider] = r.Constraints
	}
	var lines []string
	for _, p := range workdir.RequiredProviders(mod) {
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
		ds = ds.Append(writeProviderTree(w, mod.Children[name], prefix+next))
	}
	return ds
}
