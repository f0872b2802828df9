package explain

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/ui"
)

// EphemeralReport is an ephemeral resource explained: which operations of
// the plan's apply use it, so when apply opens it and after which
// operation it closes it.
type EphemeralReport struct {
	Resource addrs.ConfigResource
	// Declared is where its block is written; nil when unknown.
	Declared *hcl.Range
	// Users are the operations that use it, by step.
	Users []EphemeralUser
	// Providers are the provider configurations configured from it: every
	// operation of a resource they serve uses it, so it is held open until
	// the last of these is done.
	Providers []addrs.AbsProviderConfig
}

// EphemeralUser is one operation that uses an ephemeral resource.
type EphemeralUser struct {
	Op    apply.Op
	Label string
	Step  int
	// Provider is the provider configuration, configured from the
	// ephemeral resource, through which the operation uses it; zero when
	// the resource's own configuration refers to it.
	Provider addrs.AbsProviderConfig
}

// explainEphemeral explains ephemeral resource r (whose users uses gives,
// planner.EphemeralUsers) for the operation graph g.
func explainEphemeral(g *apply.Graph, src *sources, r addrs.ConfigResource, uses planner.EphemeralUse, steps map[apply.Op]int) EphemeralReport {
	rep := EphemeralReport{Resource: r, Providers: uses.Providers}
	if rc := src.configResource(r); rc != nil {
		rep.Declared = &rc.DeclRange
	}
	for op, rs := range apply.EphemeralUses(g, map[addrs.ConfigResource]planner.EphemeralUse{r: uses}) {
		if !slices.Contains(rs, r) {
			continue
		}
		u := EphemeralUser{Op: op, Label: ui.DescribeOp(g, op), Step: steps[op]}
		if c := g.Changes[op]; c != nil && uses.UsesProvider(c.ProviderConfig) {
			u.Provider = c.ProviderConfig
		}
		rep.Users = append(rep.Users, u)
	}
	slices.SortFunc(rep.Users, func(a, b EphemeralUser) int { return cmp.Or(a.Step-b.Step, cmp.Compare(a.Label, b.Label)) })
	return rep
}

// first and last return the users of the lowest and of the highest step.
func (r EphemeralReport) first() []EphemeralUser { return r.atStep(r.Users[0].Step) }
func (r EphemeralReport) last() []EphemeralUser  { return r.atStep(r.Users[len(r.Users)-1].Step) }

func (r EphemeralReport) atStep(step int) []EphemeralUser {
	var out []EphemeralUser
	for _, u := range r.Users {
		if u.Step == step {
			out = append(out, u)
		}
	}
	return out
}

func (u EphemeralUser) text() string {
	s := fmt.Sprintf("step %d: %s", u.Step, u.Label)
	if u.Provider != (addrs.AbsProviderConfig{}) {
		s += fmt.Sprintf(" (through %s, configured from it)", u.Provider)
	}
	return s
}

func writeEphemeralReport(b *strings.Builder, r EphemeralReport) {
	fmt.Fprintf(b, "%s\n", r.Resource)
	if r.Declared != nil {
		fmt.Fprintf(b, "  declared at %s\n", pos(*r.Declared))
	}
	b.WriteString("  ephemeral: opened by apply when first needed, closed once nothing needs it; never recorded in state or plan\n")
	if len(r.Users) == 0 {
		b.WriteString("  used by no operation of this plan: apply does not open it\n")
		return
	}
	b.WriteString("  opened before:\n")
	for _, u := range r.first() {
		fmt.Fprintf(b, "    %s\n", u.text())
	}
	b.WriteString("  used by:\n")
	for _, u := range r.Users {
		fmt.Fprintf(b, "    %s\n", u.text())
	}
	b.WriteString("  closed after:\n")
	for _, u := range r.last() {
		fmt.Fprintf(b, "    %s\n", u.text())
	}
	b.WriteString("    once every operation that uses it is done\n")
	for _, pc := range r.Providers {
		fmt.Fprintf(b, "  held open while %s, configured from it, serves an operation: the provider needs it for each operation of its resources\n", pc)
	}
}

type ephemeralReportJSON struct {
	Address      string     `json:"address"`
	Declared     *rangeJSON `json:"declared,omitempty"`
	Providers    []string   `json:"providers_configured,omitempty"`
	Users        []userJSON `json:"used_by"`
	OpenedBefore []userJSON `json:"opened_before"`
	ClosedAfter  []userJSON `json:"closed_after"`
}

type userJSON struct {
	Operation string `json:"operation"`
	Step      int    `json:"step"`
	Provider  string `json:"through_provider,omitempty"`
}

func usersJSON(us []EphemeralUser) []userJSON {
	out := []userJSON{}
	for _, u := range us {
		j := userJSON{Operation: u.Label, Step: u.Step}
		if u.Provider != (addrs.AbsProviderConfig{}) {
			j.Provider = u.Provider.String()
		}
		out = append(out, j)
	}
	return out
}

func ephemeralReportsJSON(rs []EphemeralReport) []ephemeralReportJSON {
	var out []ephemeralReportJSON
	for _, r := range rs {
		j := ephemeralReportJSON{Address: r.Resource.String(), Declared: rangeOf(r.Declared), Users: usersJSON(r.Users),
			OpenedBefore: []userJSON{}, ClosedAfter: []userJSON{}}
		for _, pc := range r.Providers {
			j.Providers = append(j.Providers, pc.String())
		}
		if len(r.Users) > 0 {
			j.OpenedBefore, j.ClosedAfter = usersJSON(r.first()), usersJSON(r.last())
		}
		out = append(out, j)
	}
	return out
}

// module returns the configuration of module instance mi, or nil.
func (s *sources) module(mi addrs.ModuleInstance) *config.Module {
	if s.cfg == nil {
		return nil
	}
	return s.cfg.Descendant(mi.Module())
}

// configResource returns the block of r, or nil.
func (s *sources) configResource(r addrs.ConfigResource) *config.Resource {
	if s.cfg == nil {
		return nil
	}
	return s.cfg.ConfigResource(r)
}

// writeUses writes the ephemeral resources an operation uses.
func writeUses(b *strings.Builder, rs []addrs.ConfigResource) {
	if len(rs) == 0 {
		return
	}
	b.WriteString("    uses ephemeral resources (opened before the first operation that uses each, closed once the last is done):\n")
	for _, r := range rs {
		fmt.Fprintf(b, "      %s\n", r)
	}
}

func ephemeralNames(rs []addrs.ConfigResource) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.String())
	}
	return out
}
