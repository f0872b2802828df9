package plugin

import (
	"context"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// TestPanickingProvider: a provider whose process panics fails the call
// with the panic's message, and its whole panic output is kept for rig to
// show, as Terraform shows it.
func TestPanickingProvider(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		TakeCrashes()
		panicking := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("panic"), "output": cty.NullVal(cty.String)})
		resp := p.ReadDataSource(context.Background(), provider.ReadDataRequest{TypeName: "test_echo", Config: panicking})
		got := details(resp.Diagnostics)
		want := "error: Plugin did not respond: The plugin encountered an error, and failed to respond to the ReadDataSource call of provider rig/test v0.0.1. It crashed with:\n\n" +
			"panic: test provider: asked to panic while reading test_echo\n\nThe plugin's stack trace follows the other messages."
		if len(got) != 1 || got[0] != want {
			t.Errorf("diagnostics = %q, want %q", got, want)
		}
		crashes := TakeCrashes()
		if len(crashes) != 1 || crashes[0].Plugin != "terraform-provider-test" {
			t.Fatalf("crashes = %+v", crashes)
		}
		text := crashes[0].Text()
		for _, want := range []string{"panic: test provider: asked to panic while reading test_echo\n", "goroutine ", "ReadDataSource", "server.go:"} {
			if !strings.Contains(text, want) {
				t.Errorf("the crash lacks %q:\n%s", want, text)
			}
		}
		if len(TakeCrashes()) != 0 {
			t.Errorf("TakeCrashes did not forget the crash")
		}
	})
}

// TestCrashWriter keeps a panic's lines from its first, however the
// output is cut into writes, and at most maxCrashLines of them.
func TestCrashWriter(t *testing.T) {
	TakeCrashes()
	w := crashOutput(Meta{Path: "/plugins/terraform-provider-x_v1.0.0"})
	var out strings.Builder
	out.WriteString("2026-01-01T00:00:00.000Z [INFO] starting\nsome noise\n")
	out.WriteString("fatal error: concurrent map writes\n\n")
	for i := range maxCrashLines + 10 {
		out.WriteString("frame " + strings.Repeat("x", i%3) + "\n")
	}
	s := out.String()
	for len(s) > 0 {
		n := min(7, len(s))
		w.Write([]byte(s[:n]))
		s = s[n:]
	}
	crashes := TakeCrashes()
	if len(crashes) != 1 || crashes[0].Plugin != "terraform-provider-x_v1.0.0" {
		t.Fatalf("crashes = %+v", crashes)
	}
	lines := crashes[0].Lines
	if len(lines) != maxCrashLines || lines[0] != "fatal error: concurrent map writes" || lines[1] != "" || lines[2] != "frame " {
		t.Errorf("%d lines, starting %q", len(lines), lines[:3])
	}
	if msg := crashMessage(crashes[0]); msg != "fatal error: concurrent map writes" {
		t.Errorf("crashMessage = %q", msg)
	}
}
