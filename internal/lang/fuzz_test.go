package lang

import (
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/config"
)

// FuzzCheckReferences checks that no configuration makes reference checking
// or the evaluation of its locals and outputs panic.
func FuzzCheckReferences(f *testing.F) {
	paths, _ := filepath.Glob("testdata/check/*.txtar")
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			continue
		}
		for _, file := range ar.Files {
			if file.Name != "want" {
				f.Add(file.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, _ := config.LoadFiles(map[string][]byte{"main.tf": src})
		_ = CheckReferences(m)
		s := &Scope{Data: testData(), Instance: InstanceData{CountIndex: cty.NumberIntVal(0)}}
		for _, l := range m.Locals {
			_, _ = s.EvalExpr(l.Expr, cty.DynamicPseudoType)
		}
		for _, r := range m.ManagedResources {
			_, _ = EvalCount(s, r.Count)
			_, _ = EvalForEach(s, r.ForEach)
		}
	})
}
