package ui

import (
	"bytes"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/ephemeral"
)

// TestEphemeralLines prints an ephemeral resource's opening and closing
// through the plan's and the apply's views, with and without color: the
// lines are OpenTofu's, the same in both views, and a failed open or close
// prints nothing more.
func TestEphemeralLines(t *testing.T) {
	addr := addrs.Resource{Mode: addrs.Ephemeral, Type: "random_password", Name: "p"}.Instance(addrs.StringKey("a")).Absolute(addrs.RootModule)
	run := func(h ephemeral.Hooks) {
		h.PreOpen(addr)
		h.PostOpen(addr, 1400*time.Millisecond, false)
		h.PreClose(addr)
		h.PostClose(addr, 0, true)
		h.PreClose(addr)
		h.PostClose(addr, 0, false)
	}
	const plain = `ephemeral.random_password.p["a"]: Opening...
ephemeral.random_password.p["a"]: Open complete after 1s
ephemeral.random_password.p["a"]: Closing...
ephemeral.random_password.p["a"]: Closing...
ephemeral.random_password.p["a"]: Close complete after 0s
`
	for _, color := range []bool{false, true} {
		var refresh, human bytes.Buffer
		run(NewRefreshView(&refresh, RenderOptions{Color: color}))
		run(MultiHooks{NewHumanHooks(&human, RenderOptions{Color: color})})
		if refresh.String() != human.String() {
			t.Errorf("color %v: the views differ:\n%s\n%s", color, refresh.String(), human.String())
		}
		want := plain
		if color {
			want = colorize("[reset][bold]", true) + `ephemeral.random_password.p["a"]: Opening...` + colorize("[reset]", true) + "\n"
		}
		if got := human.String(); !color && got != want || color && !bytes.HasPrefix(human.Bytes(), []byte(want)) {
			t.Errorf("color %v: got\n%q\nwant\n%q", color, got, want)
		}
	}
}
