package command

import (
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestRefreshChangedProgressCountsWhatIsRead: while a -refresh=changed
// plan reads back the one object whose input changed, its progress counts
// that object alone, not the two it plans as recorded (the line and the
// "progress" message).
func TestRefreshChangedProgressCountsWhatIsRead(t *testing.T) {
	live := providertest.New()
	dir := appliedThings(t, live, 3, "", "refresh = \"changed\"\nprogress_interval = \"20ms\"")
	mustRig(t, dir, "plan", "-no-color") // every time is known from now on

	release := live.Reads.Block()
	defer release()
	stream, done := runStreaming(t, dir, "plan", "-no-color", "-var", "v=w")
	b := awaitStream(t, stream, "refresh progress while a read was held", release, func(b string) bool {
		return strings.Contains(b, `"phase":"refresh"`)
	})
	if !strings.Contains(b, `"progress":{"done":0,"elapsed_seconds":`) || !strings.Contains(b, `"total":1}`) {
		t.Errorf("progress while the one object is read:\n%s", b)
	}
	release()
	r := <-done
	if r.code != 0 {
		t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Still refreshing... 0/1 (") || strings.Contains(r.stdout, "/3 (") {
		t.Errorf("progress lines count objects not read back:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "2 objects not refreshed") {
		t.Errorf("plan does not say 2 objects were not refreshed:\n%s", r.stdout)
	}
}
