package workdir

import (
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// ParseTargetFiles parses the files given to -target-file or -exclude-file
// (flag): an address a line; blank lines and lines starting with # are
// skipped. A bad address is reported at its file and line, shown with it
// (the files read go into sources).
func ParseTargetFiles(paths []string, flag string, sources map[string][]byte) ([]addrs.Target, diag.Diagnostics) {
	var ds diag.Diagnostics
	var out []addrs.Target
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			ds = ds.Append(diag.Errorf("Failed to read "+flag+" file", "Reading %s: %s.", path, err))
			continue
		}
		sources[path] = b
		offset := 0
		for i, line := range strings.Split(string(b), "\n") {
			start := offset
			offset += len(line) + 1
			text := strings.TrimSpace(line)
			if text == "" || strings.HasPrefix(text, "#") {
				continue
			}
			t, err := addrs.ParseTargetStr(text)
			if err != nil {
				at := strings.Index(line, text)
				rng := hcl.Range{Filename: path,
					Start: hcl.Pos{Line: i + 1, Column: at + 1, Byte: start + at},
					End:   hcl.Pos{Line: i + 1, Column: at + 1 + len(text), Byte: start + at + len(text)}}
				ds = ds.Append(diag.At(rng, "Invalid "+flag+" address", err.Error()))
				continue
			}
			out = append(out, t)
		}
	}
	return out, ds
}
