package ui

import (
	"fmt"
	"io"
)

// RenderWorkspaceList lists the workspaces names, marking the current one,
// on w, and as OpenTofu's workspace_list message on stream when it is not
// nil.
func RenderWorkspaceList(w io.Writer, stream *JSONView, names []string, current string) {
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
}
