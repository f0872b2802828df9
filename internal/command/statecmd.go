package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/ui"
)

// runStateList lists the instances in state, optionally filtered by address prefixes.
func runStateList(m *Meta, args []string) int {
	fs := m.flagSet("state list")
	m.addLegacyStateFlags(fs, legacyStateOnly)
	m.legacy.anyBackend = true
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	s, ds := m.currentState()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	filters := fs.Args()
	seen := map[addrs.AbsResourceInstance]bool{}
	for _, o := range s.Objects() {
		if seen[o.Instance] {
			continue
		}
		seen[o.Instance] = true
		addr := o.Instance.String()
		if len(filters) > 0 && !matchesAny(addr, o.Instance.ContainingResource().String(), filters) {
			continue
		}
		fmt.Fprintln(m.Out, addr)
	}
	return 0
}

func matchesAny(instance, resource string, filters []string) bool {
	for _, f := range filters {
		if instance == f || resource == f || strings.HasPrefix(instance, f+".") {
			return true
		}
	}
	return false
}

// runStateShow shows one instance's attributes.
func runStateShow(m *Meta, args []string) int {
	fs := m.flagSet("state show")
	m.addShowSensitiveFlag(fs)
	m.addLegacyStateFlags(fs, legacyStateOnly)
	m.legacy.anyBackend = true
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return m.argsError(fs, "Exactly one argument expected", "The state show command expects exactly one argument: the address of a resource instance.")
	}
	addr, err := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Error parsing instance address", "%s", err)})
		return 1
	}
	s, ds := m.currentState()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	inst := s.Instance(addr)
	if inst == nil || !inst.HasObjects() {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("No instance found for the given address!",
			"This command requires that the address references one specific instance. To view the available instances, use \"rig state list\". Please modify the address to reference a specific instance.")})
		return 1
	}
	set := provider.NewSet(m.providerFactories())
	defer set.Close()
	_ = ui.RenderStateInstance(m.Out, s, addr, stateSchemas(context.Background(), set, s), m.renderOptions())
	return 0
}
