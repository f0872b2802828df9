package ui

import (
	"fmt"
	"io"
)

// RenderPluginCrash shows the panic output (trace) of a provider plugin
// that crashed, as Terraform and OpenTofu show it after a command that
// failed: the trace, then the plugin named as the one at fault.
func RenderPluginCrash(w io.Writer, plugin, trace string, color bool) {
	fmt.Fprintf(w, "\nStack trace from the %s plugin:\n\n%s\n\n", plugin, trace)
	prefix, suffix := "Error: ", "" // the plugin's name is not a template
	if color {
		prefix, suffix = "\x1b[31m\x1b[1mError:\x1b[0m\x1b[1m ", "\x1b[0m"
	}
	fmt.Fprintf(w, "%sThe %s plugin crashed!%s\n\n", prefix, plugin, suffix)
	fmt.Fprintf(w, "A plugin that crashes has a bug: please report it to the plugin's developers\nwith the output above, which shows where it happened.\n")
}
