package command

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestExplainActionsAndEphemerals runs the scenarios of
// testdata/explainextras/*.txtar with the plugin test provider: main.tf is
// planned and each line of args is run as `rig explain LINE` and
// `rig explain -json LINE`, whose outputs are the want and want.json
// sections (rewritten with -update). No output holds a sensitive or
// ephemeral value.
func TestExplainActionsAndEphemerals(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "explainextras", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	actionsWorld(t)
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{}
			var args string
			for _, f := range ar.Files {
				switch f.Name {
				case "args":
					args = string(f.Data)
				case "want", "want.json":
				default:
					files[f.Name] = string(f.Data)
				}
			}
			dir := workDir(t, files)
			var text, js strings.Builder
			for _, line := range strings.Split(strings.TrimSpace(args), "\n") {
				// Leading options, then one address.
				args := strings.Fields(line)
				r := rig(t, dir, append([]string{"explain", "-no-color"}, args...)...)
				text.WriteString("$ rig explain " + line + "\n" + r.stdout + errorSection(r) + "\n")
				r = rig(t, dir, append([]string{"explain", "-no-color", "-json"}, args...)...)
				js.WriteString("$ rig explain -json " + line + "\n" + r.stdout + errorSection(r) + "\n")
			}
			for _, out := range []string{text.String(), js.String()} {
				for _, secret := range []string{"hush-4711", "token-tok"} {
					if strings.Contains(out, secret) {
						t.Errorf("explain shows %q:\n%s", secret, out)
					}
				}
			}
			checkSection(t, path, ar, "want", normalize(text.String()))
			checkSection(t, path, ar, "want.json", normalize(js.String()))
		})
	}
}

// errorSection is the errors r printed, from the first, when it failed
// (the warning of the provider's development override left out).
func errorSection(r result) string {
	if r.code == 0 {
		return ""
	}
	_, errs, _ := strings.Cut(r.stderr, "Error: ")
	return "(exit " + strconv.Itoa(r.code) + ")\nError: " + errs
}
