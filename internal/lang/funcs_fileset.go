package lang

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// filesetFunc is fileset(path, pattern): the regular files under path
// (relative to baseDir unless absolute) that match the glob pattern, as a
// set of slash-separated paths relative to path. "**" matches any number of
// directories, as in OpenTofu. A sensitive path or pattern is not shown in
// errors, and marks the result.
func filesetFunc(baseDir string) function.Function {
	return function.New(&function.Spec{
		Description: "Enumerates a set of regular file names given a path and pattern.",
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
			{Name: "pattern", Type: cty.String, AllowMarked: true},
		},
		Type:         function.StaticReturnType(cty.Set(cty.String)),
		RefineResult: notNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			pathVal, pathMarks := args[0].Unmark()
			patternVal, patternMarks := args[1].Unmark()
			show := func(s string) string { return redact(s, pathMarks, patternMarks) }
			unknown := cty.UnknownVal(retType)

			dir := pathVal.AsString()
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(baseDir, dir)
			}
			pattern := filepath.Join(dir, patternVal.AsString())
			matches, err := doublestar.FilepathGlob(pattern)
			if err != nil {
				return unknown, fmt.Errorf("failed to glob pattern %s: %w", show(pattern), err)
			}
			var files []cty.Value
			for _, m := range matches {
				fi, err := os.Stat(m)
				if err != nil {
					return unknown, fmt.Errorf("failed to stat %s: %w", show(m), err)
				}
				if !fi.Mode().IsRegular() {
					continue
				}
				rel, err := filepath.Rel(dir, m)
				if err != nil {
					return unknown, fmt.Errorf("failed to trim path of match %s: %w", show(m), err)
				}
				files = append(files, cty.StringVal(filepath.ToSlash(rel)))
			}
			if len(files) == 0 {
				return cty.SetValEmpty(cty.String).WithMarks(pathMarks, patternMarks), nil
			}
			return cty.SetVal(files).WithMarks(pathMarks, patternMarks), nil
		},
	})
}
