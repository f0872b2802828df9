package ui

import (
	"fmt"
	"io"
	"os"

	"github.com/rig-iac/rig/internal/diag"
)

// OpenJSONInto creates the file -json-into names (created or truncated,
// mode 0600), for a command's machine-readable output; nil without
// -json-into (path ""). json says -json was given too, which does not go
// with it. The caller closes the file.
func OpenJSONInto(path string, json bool) (*os.File, diag.Diagnostics) {
	if path == "" {
		return nil, nil
	}
	if json {
		return nil, diag.Diagnostics{diag.Errorf("Invalid output format", "The -json and -json-into arguments are mutually exclusive.")}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, diag.Diagnostics{diag.Errorf("Invalid argument", "Unable to open the file %q specified by -json-into for writing: %s.", path, err)}
	}
	return f, nil
}

// WriteJSONInto writes the JSON document a command prints with -json into
// the file -json-into names, for the commands whose machine-readable
// output is one document (output, show, validate, state show).
func WriteJSONInto(path string, doc []byte) diag.Diagnostics {
	f, ds := OpenJSONInto(path, false)
	if ds.HasErrors() {
		return ds
	}
	_, err := f.Write(append(doc, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to write the -json-into file", "Writing %s: %s.", path, err)}
	}
	return nil
}

// DocumentView is where a command whose machine-readable output is one
// JSON document writes it: on W instead of the human rendering with
// -json (JSON), into the file -json-into names (Into) beside it.
type DocumentView struct {
	W    io.Writer
	JSON bool
	Into string
}

// Wanted reports whether the JSON document is written anywhere.
func (v DocumentView) Wanted() bool { return v.JSON || v.Into != "" }

// Write writes the document doc where it goes; it reports whether the
// human rendering follows.
func (v DocumentView) Write(doc []byte) (human bool, ds diag.Diagnostics) {
	switch {
	case v.JSON:
		fmt.Fprintln(v.W, string(doc))
		return false, nil
	case v.Into != "":
		return true, WriteJSONInto(v.Into, doc)
	}
	return true, nil
}
