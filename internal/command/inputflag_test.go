package command

import (
	"strings"
	"testing"
)

// -input is refused, as OpenTofu 1.12.6, Terraform 1.11 and 1.16 refuse
// it, by the commands none of them gives it, and taken by the others.
func TestInputFlagWhereTheToolsTakeIt(t *testing.T) {
	refused := [][]string{
		{"validate"}, {"test"}, {"fmt"}, {"force-unlock", "x"}, {"get"}, {"graph"}, {"metadata", "functions", "-json"},
		{"output"}, {"show"}, {"providers"}, {"providers", "lock"}, {"providers", "mirror", "d"}, {"providers", "schema", "-json"},
		{"state", "list"}, {"state", "mv", "a.b", "a.c"}, {"state", "pull"}, {"state", "push", "x"},
		{"state", "replace-provider", "a", "b"}, {"state", "rm", "a.b"}, {"state", "show", "a.b"},
		{"taint", "a.b"}, {"untaint", "a.b"}, {"version"},
		{"workspace", "list"}, {"workspace", "new", "w"}, {"workspace", "select", "w"}, {"workspace", "delete", "w"},
	}
	taken := [][]string{{"init"}, {"plan"}, {"apply", "-auto-approve"}, {"refresh"}, {"workspace", "show"}}
	dir := workDir(t, map[string]string{"main.tf": "output \"o\" {\n  value = 1\n}\n"})
	for _, args := range refused {
		r := rig(t, dir, append(args, "-input=false", "-no-color")...)
		if r.code != 1 || !strings.Contains(r.stderr, "flag provided but not defined: -input") {
			t.Errorf("%s -input=false: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	for _, args := range taken {
		if r := rig(t, dir, append(args, "-input=false", "-no-color")...); r.code != 0 {
			t.Errorf("%s -input=false: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
}
