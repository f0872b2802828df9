package ui

import (
	"fmt"
	"io"
)

// RenderImportTargetMissing writes, on w (standard error), OpenTofu's
// error for an import whose target resource the configuration does not
// declare: not a diagnostic, for its detail holds an example block. addr
// is the target, where the module that lacks it ("the root module"), typ
// and name the resource's.
func RenderImportTargetMissing(w io.Writer, addr, where, typ, name string, color bool) {
	// The escapes OpenTofu's colorizer writes for its template; the
	// values are written apart from them, never read for tags.
	begin, bold, end, final := "", "", "", ""
	if color {
		begin, bold, end, final = "\x1b[0m\x1b[1m\x1b[31m", "\x1b[0m\x1b[1m", "\x1b[0m", "\x1b[0m"
	}
	fmt.Fprintf(w, "%sError:%s resource address %q does not exist in the configuration.%s\n\n", begin, bold, addr, end)
	fmt.Fprintf(w, "Before importing this resource, please create its configuration in %s. For example:\n\nresource %q %q {\n  # (resource arguments)\n}\n%s\n", where, typ, name, final)
}
