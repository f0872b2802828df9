package command

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
)

// TestInspectionCommands checks show, state list, state show, output and
// graph on an applied configuration.
func TestInspectionCommands(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig + `
resource "terraform_data" "c" {
  for_each = toset(["x", "y"])
  input    = each.key
}

output "b" {
  value = terraform_data.b.output
}

output "keys" {
  value = keys(terraform_data.c)
}
`})
	if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color"); r.code != 0 {
		t.Fatalf("apply: %s", r.stderr)
	}
	steps := []struct {
		name string
		args []string
	}{
		{"state-list", []string{"state", "list"}},
		{"state-list-filtered", []string{"state", "list", "terraform_data.c"}},
		{"state-show", []string{"state", "show", "-no-color", `terraform_data.c["x"]`}},
		{"show", []string{"show", "-no-color"}},
		{"output", []string{"output", "-no-color"}},
		{"output-one", []string{"output", "-no-color", "b"}},
		{"output-raw", []string{"output", "-raw", "b"}},
		{"output-json", []string{"output", "-json"}},
		{"graph", []string{"graph"}},
		{"graph-plan-destroy", []string{"graph", "-type=plan-destroy"}},
		{"show-json", []string{"show", "-json"}},
	}
	for _, s := range steps {
		r := rig(t, dir, s.args...)
		if r.code != 0 {
			t.Errorf("%s: exit %d\n%s", s.name, r.code, r.stderr)
			continue
		}
		golden(t, "inspect/"+s.name, r.stdout)
	}
	if r := rig(t, dir, "output", "nope"); r.code != 1 || !strings.Contains(r.stderr, `Output "nope" not found`) {
		t.Errorf("missing output: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "state", "show", "terraform_data.zzz"); r.code != 1 || !strings.Contains(r.stderr, "No instance found for the given address") {
		t.Errorf("missing instance: exit %d\n%s", r.code, r.stderr)
	}
}

// TestJSONStream checks the machine-readable output of plan and apply: one
// JSON object per line with the documented fields.
func TestJSONStream(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	r := rig(t, dir, "plan", "-json", "-input=false")
	if r.code != 0 {
		t.Fatalf("plan -json: %s%s", r.stdout, r.stderr)
	}
	msgs := parseLines(t, r.stdout)
	wantTypes(t, msgs, "version", "planned_change", "planned_change", "change_summary", "order_of_operations")
	pc := msgs[1]
	if hook(pc, "change", "resource", "addr") != "terraform_data.a" || hook(pc, "change", "action") != "create" {
		t.Errorf("planned_change = %v", pc)
	}
	if msgs[3]["@message"] != "Plan: 2 to add, 0 to change, 0 to destroy." {
		t.Errorf("change_summary message = %v", msgs[3]["@message"])
	}

	r = rig(t, dir, "apply", "-json", "-auto-approve", "-input=false")
	if r.code != 0 {
		t.Fatalf("apply -json: %s%s", r.stdout, r.stderr)
	}
	msgs = parseLines(t, r.stdout)
	var starts, completes []string
	for _, m := range msgs {
		for _, k := range []string{"@level", "@message", "@module", "@timestamp", "type"} {
			if _, ok := m[k]; !ok {
				t.Fatalf("message lacks %s: %v", k, m)
			}
		}
		switch m["type"] {
		case "apply_start":
			starts = append(starts, hook(m, "hook", "resource", "addr")+" "+hook(m, "hook", "action"))
		case "apply_complete":
			completes = append(completes, hook(m, "hook", "resource", "addr")+" "+hook(m, "hook", "action"))
		}
	}
	if strings.Join(starts, "; ") != "terraform_data.a create; terraform_data.b create" || len(completes) != 2 {
		t.Errorf("apply_start %v, apply_complete %v", starts, completes)
	}
	last := msgs[len(msgs)-1]
	if last["type"] != "outputs" || msgs[len(msgs)-2]["@message"] != "Apply complete! Resources: 2 added, 0 changed, 0 destroyed." {
		t.Errorf("stream ends with %v / %v", msgs[len(msgs)-2], last)
	}

	// Errors are "diagnostic" messages.
	writeFile(t, dir, "main.tf", `resource "terraform_data" "a" { input = var.nope }`)
	r = rig(t, dir, "plan", "-json", "-input=false")
	msgs = parseLines(t, r.stdout)
	if r.code != 1 || msgs[len(msgs)-1]["type"] != "diagnostic" || hook(msgs[len(msgs)-1], "diagnostic", "summary") != "Reference to undeclared input variable" {
		t.Errorf("diagnostic stream: exit %d\n%s", r.code, r.stdout)
	}
}

func parseLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var msgs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line is not a JSON object: %q: %v", sc.Text(), err)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

func wantTypes(t *testing.T, msgs []map[string]any, types ...string) {
	t.Helper()
	var got []string
	for _, m := range msgs {
		got = append(got, m["type"].(string))
	}
	if strings.Join(got, " ") != strings.Join(types, " ") {
		t.Fatalf("message types = %v, want %v", got, types)
	}
}

// hook digs a string out of nested JSON objects.
func hook(m map[string]any, path ...string) string {
	var cur any = m
	for _, p := range path {
		obj, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = obj[p]
	}
	s, _ := cur.(string)
	return s
}
