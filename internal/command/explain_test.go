package command

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/txtartest"
)

// TestExplainScenarios runs the scenarios of testdata/explain/*.txtar, the
// examples of the resource destruction notes: before.tf (if any) is
// applied to make the prior state, main.tf replaces it (other sections,
// such as a module's m/main.tf, are written as they are), and each line of
// args (options, then an address) is run as `rig explain LINE` and
// `rig explain -json LINE`, whose
// outputs are the want and want.json sections (rewritten with -update).
// Then the plan is applied, and every "waits for" the JSON names must hold
// in the order the operations actually ran.
func TestExplainScenarios(t *testing.T) {
	txtartest.Run(t, filepath.Join("testdata", "explain", "*.txtar"), func(t *testing.T, path string, ar *txtar.Archive) {
		sections := txtartest.Files(ar)
		dir := t.TempDir()
		for name, data := range sections {
			switch name {
			case "before.tf", "main.tf", "args", "want", "want.json", "no-apply":
			default:
				if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, dir, name, data)
			}
		}
		if before, ok := sections["before.tf"]; ok {
			writeFile(t, dir, "main.tf", before)
			if r := rig(t, dir, "apply", "-auto-approve"); r.code != 0 {
				t.Fatalf("applying before.tf: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
		}
		writeFile(t, dir, "main.tf", sections["main.tf"])
		var text, js strings.Builder
		var planArgs []string
		var reports []explainJSON
		for _, line := range strings.Split(strings.TrimSpace(sections["args"]), "\n") {
			// Leading options, then one address, which may hold spaces.
			var args []string
			rest := line
			for strings.HasPrefix(rest, "-") {
				opt, more, _ := strings.Cut(rest, " ")
				args = append(args, opt)
				planArgs = append(planArgs, opt)
				rest = strings.TrimSpace(more)
			}
			args = append(args, rest)
			r := rig(t, dir, append([]string{"explain", "-no-color"}, args...)...)
			text.WriteString("$ rig explain " + line + "\n" + r.stdout + stderrSection(r) + "\n")
			r = rig(t, dir, append([]string{"explain", "-no-color", "-json"}, args...)...)
			js.WriteString("$ rig explain -json " + line + "\n" + r.stdout + stderrSection(r) + "\n")
			var rep explainJSON
			if r.code == 0 {
				if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
					t.Fatalf("explain -json %s: %v\n%s", line, err, r.stdout)
				}
				reports = append(reports, rep)
			}
		}
		txtartest.Check(t, path, ar, "want", normalize(text.String()), *update)
		txtartest.Check(t, path, ar, "want.json", normalize(js.String()), *update)
		if _, ok := sections["no-apply"]; ok {
			return
		}
		checkRunOrder(t, dir, planArgs, reports)
	})
}

func stderrSection(r result) string {
	if r.stderr == "" {
		return ""
	}
	return "(stderr)\n" + r.stderr
}

// explainJSON is the part of `rig explain -json` checkRunOrder reads.
type explainJSON struct {
	Objects []struct {
		Operations []struct {
			Operation string `json:"operation"`
			WaitsFor  []struct {
				Operation string `json:"operation"`
				Step      int    `json:"step"`
			} `json:"waits_for"`
		} `json:"operations"`
	} `json:"objects"`
}

// checkRunOrder applies the plan and checks, in the apply's JSON stream,
// that every operation started only after each operation it waits for had
// completed.
func checkRunOrder(t *testing.T, dir string, planArgs []string, reports []explainJSON) {
	t.Helper()
	r := rig(t, dir, append([]string{"apply", "-auto-approve", "-json"}, planArgs...)...)
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	started, completed := map[string]int{}, map[string]int{}
	for i, line := range bytes.Split([]byte(r.stdout), []byte("\n")) {
		var msg struct {
			Type string `json:"type"`
			Hook struct {
				Resource struct {
					Addr string `json:"addr"`
				} `json:"resource"`
				Action string `json:"action"`
			} `json:"hook"`
		}
		if json.Unmarshal(line, &msg) != nil {
			continue
		}
		key := msg.Hook.Action + " " + msg.Hook.Resource.Addr
		switch msg.Type {
		case "apply_start":
			started[key] = i
		case "apply_complete":
			completed[key] = i
		}
	}
	checked := 0
	for _, rep := range reports {
		for _, o := range rep.Objects {
			for _, op := range o.Operations {
				start, ok := started[hookKey(op.Operation)]
				if !ok {
					t.Errorf("%s did not run", op.Operation)
					continue
				}
				for _, w := range op.WaitsFor {
					if w.Step == 0 {
						continue // a group of operations
					}
					done, ok := completed[hookKey(w.Operation)]
					if !ok || done > start {
						t.Errorf("%s started before %s, which it waits for, completed", op.Operation, w.Operation)
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d waits checked against the apply", checked)
}

// hookKey turns an operation as explain names it ("destroy
// terraform_data.a (deposed)") into its hooks' action and address
// ("delete terraform_data.a").
func hookKey(label string) string {
	verb, rest, _ := strings.Cut(label, " ")
	addr, _, _ := strings.Cut(rest, " ")
	if verb == "destroy" {
		verb = "delete"
	}
	return verb + " " + addr
}

// TestExplainSavedPlan: explaining a saved plan tells what explaining a new
// plan tells, and the saved plan's JSON carries the reasons, the
// inheritance path included.
func TestExplainSavedPlan(t *testing.T) {
	files := txtartest.ReadFiles(t, filepath.Join("testdata", "explain", "forced_cbd_path.txtar"))
	dir := t.TempDir()
	writeFile(t, dir, "main.tf", files["before.tf"])
	if r := rig(t, dir, "apply", "-auto-approve"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, dir, "main.tf", files["main.tf"])
	if r := rig(t, dir, "plan", "-out=saved.tfplan"); r.code != 0 {
		t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	fresh := rig(t, dir, "explain", "-no-color", "terraform_data.a")
	saved := rig(t, dir, "explain", "-no-color", "terraform_data.a", "saved.tfplan")
	if saved.code != 0 || saved.stdout != fresh.stdout {
		t.Errorf("explaining the saved plan: exit %d\n%s\nwant what a new plan gives:\n%s%s", saved.code, saved.stdout, fresh.stdout, saved.stderr)
	}

	r := rig(t, dir, "show", "-json", "saved.tfplan")
	if r.code != 0 {
		t.Fatalf("show -json: exit %d\n%s", r.code, r.stderr)
	}
	var shown struct {
		ResourceChanges []struct {
			Address    string `json:"address"`
			RigReasons []struct {
				Kind     string   `json:"kind"`
				Resource string   `json:"resource"`
				Path     []string `json:"path"`
			} `json:"rig_reasons"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &shown); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, rc := range shown.ResourceChanges {
		for _, why := range rc.RigReasons {
			s := why.Kind
			if why.Resource != "" {
				s += " from " + why.Resource + " along " + strings.Join(why.Path, " → ")
			}
			got[rc.Address] = append(got[rc.Address], s)
		}
	}
	want := map[string][]string{
		"terraform_data.a": {"requires_replace", "create_before_destroy_inherited from terraform_data.c along terraform_data.c → terraform_data.b → terraform_data.a"},
		"terraform_data.b": {"config_changed", "create_before_destroy_inherited from terraform_data.c along terraform_data.c → terraform_data.b"},
		"terraform_data.c": {"requires_replace", "create_before_destroy"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rig_reasons in show -json (-want +got):\n%s", diff)
	}
}
