package ui

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// RenderWorkspaceList lists the workspaces names (the default one first,
// then the others in their order, as OpenTofu lists them), marking the current one,
// on w, and as OpenTofu's workspace_list message on stream when it is not
// nil; overridden (TF_WORKSPACE sets the current one) adds a note saying
// so after the list.
func RenderWorkspaceList(w io.Writer, stream *JSONView, names []string, current string, overridden bool) {
	names = defaultFirst(names)
	if stream != nil {
		stream.Message("list of workspaces", "workspace_list", map[string]any{"workspaces": names, "current_workspace": current})
	}
	for _, n := range names {
		mark := "  "
		if n == current {
			mark = "* "
		}
		fmt.Fprintln(w, mark+n)
	}
	fmt.Fprintln(w)
	if overridden {
		if stream != nil {
			stream.Info(workspaceOverriddenNote)
		}
		fmt.Fprintf(w, "\n\n%s environment\nvariable.\n\n", strings.TrimSuffix(workspaceOverriddenNote, " environment variable"))
	}
}

// workspaceOverriddenNote is what the list says when TF_WORKSPACE sets
// the current workspace.
const workspaceOverriddenNote = "The active workspace is being overridden using the TF_WORKSPACE environment variable"

// defaultFirst returns names with "default" moved to the front, in a new
// slice when it moves.
func defaultFirst(names []string) []string {
	i := slices.Index(names, "default")
	if i <= 0 {
		return names
	}
	return slices.Concat([]string{"default"}, names[:i], names[i+1:])
}
