package ui

import (
	"fmt"
	"io"

	"github.com/rig-iac/rig/internal/addrs"
)

// StateEditView says what a command that edits the state (state rm, state
// mv, taint, untaint, state replace-provider, state unprotect) changed or,
// with DryRun, would change, in OpenTofu's words.
type StateEditView struct {
	W      io.Writer
	DryRun bool
}

// Removed lists the instances state rm removes.
func (v StateEditView) Removed(instances []addrs.AbsResourceInstance) {
	verb := "Removed"
	if v.DryRun {
		verb = "Would remove"
	}
	for _, inst := range instances {
		fmt.Fprintf(v.W, "%s %s\n", verb, inst)
	}
	if !v.DryRun {
		fmt.Fprintf(v.W, "Successfully removed %d resource instance(s).\n", len(instances))
	}
}

// Moved says what state mv moves from one address to another, and how
// many objects.
func (v StateEditView) Moved(from, to fmt.Stringer, objects int) {
	verb := "Move"
	if v.DryRun {
		verb = "Would move"
	}
	fmt.Fprintf(v.W, "%s %q to %q\n", verb, from, to)
	if !v.DryRun {
		fmt.Fprintf(v.W, "Successfully moved %d object(s).\n", objects)
	}
}

// Tainted says that taint (tainted) or untaint changed addr's object.
func (v StateEditView) Tainted(addr addrs.AbsResourceInstance, tainted bool) {
	if tainted {
		fmt.Fprintf(v.W, "Resource instance %s has been marked as tainted.\n", addr)
		return
	}
	fmt.Fprintf(v.W, "Resource instance %s has been successfully untainted.\n", addr)
}

// ProviderReplacement lists what state replace-provider is about to
// change, before it asks; with no resource, that none matches.
func (v StateEditView) ProviderReplacement(from, to addrs.Provider, resources []addrs.AbsResource) {
	if len(resources) == 0 {
		fmt.Fprintln(v.W, "No matching resources found.")
		return
	}
	fmt.Fprintf(v.W, "rig will perform the following actions:\n\n  ~ Updating provider:\n    - %s\n    + %s\n\nChanging %d resources:\n\n", from, to, len(resources))
	for _, r := range resources {
		fmt.Fprintf(v.W, "  %s\n", r)
	}
	fmt.Fprintln(v.W)
}

// ProvidersReplaced says state replace-provider changed n resources.
func (v StateEditView) ProvidersReplaced(n int) {
	fmt.Fprintf(v.W, "\nSuccessfully replaced provider for %d resources.\n", n)
}

// Unprotected says state unprotect lifted the prevent_destroy set at setAt.
func (v StateEditView) Unprotected(addr addrs.AbsResourceInstance, setAt string) {
	fmt.Fprintf(v.W, "Resource instance %s is no longer protected: the prevent_destroy set at %s is lifted.\n", addr, setAt)
}
