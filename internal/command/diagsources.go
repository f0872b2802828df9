package command

import (
	"os"

	"github.com/rig-iac/rig/internal/diag"
)

// addDiagnosticSources reads the files that diagnostics point into and
// that the command has not loaded itself (the modules the installer loaded
// below the root), so that their snippets are shown.
func (m *Meta) addDiagnosticSources(ds diag.Diagnostics) {
	for _, d := range ds {
		if d.Subject == nil || d.Subject.Filename == "" {
			continue
		}
		name := d.Subject.Filename
		if _, ok := m.sources[name]; ok {
			continue
		}
		if src, err := os.ReadFile(name); err == nil {
			if m.sources == nil {
				m.sources = map[string][]byte{}
			}
			m.sources[name] = src
		}
	}
}
