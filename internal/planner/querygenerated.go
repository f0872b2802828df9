package planner

import (
	"bytes"

	"github.com/rig-iac/rig/internal/plan"
)

// QueryGeneratedFile is the content of rig query's -generate-config-out
// file: for every object found, its resource block and the import block
// that imports it by its identity (GenerateListed).
func QueryGeneratedFile(results []plan.ListResult) []byte {
	var b bytes.Buffer
	b.WriteString("# __generated__ by rig query\n# Please review these resources and move them into your main configuration files.\n")
	for _, r := range results {
		for _, g := range GenerateListed(r) {
			b.WriteString("\n# __generated__ by rig from " + r.Addr.String() + "\n")
			b.Write(g.Config)
			b.WriteString("\n")
			b.Write(g.Import)
		}
	}
	return b.Bytes()
}
