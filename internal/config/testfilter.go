package config

import (
	"fmt"
	"path"

	"github.com/rig-iac/rig/internal/diag"
)

// FilterTestFiles keeps the files filter names (rig test -filter, paths
// relative to the working directory); a name that matches no
// file is a warning, and so is a filter that leaves nothing.
func FilterTestFiles(files []*TestFile, filter []string) ([]*TestFile, diag.Diagnostics) {
	if len(filter) == 0 {
		return files, nil
	}
	var ds diag.Diagnostics
	var out []*TestFile
	for _, name := range filter {
		found := false
		for _, tf := range files {
			if tf.Name == path.Clean(name) {
				out = append(out, tf)
				found = true
			}
		}
		if !found {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Unknown test file", Detail: fmt.Sprintf("The specified test file, %s, could not be found.", name)})
		}
	}
	if len(out) == 0 {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "No tests were found", Detail: "-filter is being used but no tests were found. Make sure you're using a relative path to the current working directory."})
	}
	return out, ds
}
