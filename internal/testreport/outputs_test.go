package testreport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/diag"
)

func TestOutputs(t *testing.T) {
	sources := map[string][]byte{"main.tf": []byte("x")}
	var human, stream bytes.Buffer
	o := Outputs{Human: &Human{Out: &human}, JSON: &stream, TerraformVersion: "1.11.0", RigVersion: "0.1.0"}
	reps := o.Reporter(sources)
	if len(reps) != 2 || o.Human.Sources["main.tf"] == nil {
		t.Fatalf("got %d reporters (human sources %v), want the human report with the sources and the JSON one", len(reps), o.Human.Sources)
	}
	if !strings.Contains(stream.String(), `"terraform":"1.11.0"`) || !strings.Contains(stream.String(), `"type":"version"`) {
		t.Errorf("the JSON stream does not start with the version message: %s", stream.String())
	}
	stream.Reset()
	o.SetupDiagnostics(diag.Diagnostics{diag.Errorf("Bad test file", "detail")}, sources)
	if !strings.Contains(stream.String(), `"type":"diagnostic"`) || !strings.Contains(stream.String(), "Bad test file") {
		t.Errorf("setup diagnostics: %s", stream.String())
	}
	if reps := (Outputs{}).Reporter(sources); len(reps) != 0 {
		t.Errorf("no outputs: got %d reporters", len(reps))
	}
}
