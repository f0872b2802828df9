package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/state"
)

// RenderOptions.ShowSensitive is the one switch that shows sensitive
// values in every human rendering (-show-sensitive): without it, plans,
// state, outputs and console values hide them, and with it, none does.
func TestShowSensitiveIsOneSwitch(t *testing.T) {
	outs := map[string]state.OutputValue{
		"secret": {Value: cty.StringVal("0utput-s3cret"), Sensitive: true},
	}
	nested := cty.ObjectVal(map[string]cty.Value{"pw": cty.StringVal("v4lue-s3cret").Mark(marks.Sensitive)})
	render := func(opts RenderOptions) string {
		var b bytes.Buffer
		if err := RenderPlan(&b, mixedPlan(), testSchemas(), opts); err != nil {
			t.Fatal(err)
		}
		if err := RenderState(&b, showState(), testSchemas(), opts); err != nil {
			t.Fatal(err)
		}
		if err := RenderStateInstance(&b, showState(), managed("test_instance", "web", addrs.StringKey("blue")), testSchemas(), opts); err != nil {
			t.Fatal(err)
		}
		if err := RenderApplyOutputs(&b, outs, opts); err != nil {
			t.Fatal(err)
		}
		b.WriteString(opts.FormatValue(nested, 0))
		return b.String()
	}
	secrets := []string{
		"hunter3",       // a schema-sensitive attribute in a plan
		"t0k3n",         // a path state records as sensitive
		"0utput-s3cret", // a sensitive output
		"v4lue-s3cret",  // a marked value, as the console prints it
	}
	hidden := render(RenderOptions{})
	for _, s := range secrets {
		if strings.Contains(hidden, s) {
			t.Errorf("without ShowSensitive, %q is shown", s)
		}
	}
	if !strings.Contains(hidden, "(sensitive value)") || !strings.Contains(hidden, "<sensitive>") {
		t.Errorf("without ShowSensitive, nothing says a value is hidden:\n%s", hidden)
	}
	shown := render(RenderOptions{ShowSensitive: true})
	for _, s := range secrets {
		if !strings.Contains(shown, s) {
			t.Errorf("with ShowSensitive, %q is not shown", s)
		}
	}
	if strings.Contains(shown, "(sensitive value)") || strings.Contains(shown, "<sensitive>") {
		t.Errorf("with ShowSensitive, values are still hidden:\n%s", shown)
	}
}
