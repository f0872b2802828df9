package command

import (
	"testing"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/command/commandtest"
)

// pgTarget is a schema of the test database for one test's pg backend:
// commandtest.PGTarget under this package's names.
type pgTarget struct {
	conn   string // connection string
	schema string
}

func newPGTarget(t *testing.T) pgTarget {
	t.Helper()
	p := commandtest.NewPGTarget(t)
	return pgTarget{conn: p.Conn, schema: p.Schema}
}

func (p pgTarget) shared() commandtest.PGTarget {
	return commandtest.PGTarget{Conn: p.conn, Schema: p.schema}
}

// block is the terraform block selecting this target.
func (p pgTarget) block() string { return p.shared().Block() }

// row returns a workspace's data column; ok is false when there is no row
// or it is NULL.
func (p pgTarget) row(t *testing.T, ws string) (data string, ok bool) {
	t.Helper()
	return p.shared().Row(t, ws)
}

// state parses a workspace's state row.
func (p pgTarget) state(t *testing.T, ws string) stateFile {
	t.Helper()
	return p.shared().State(t, ws)
}

// durableInstances counts the instances a run recovering the workspace
// would find: those of its row with its journal replayed onto them.
func (p pgTarget) durableInstances(t *testing.T, ws string) int {
	t.Helper()
	return p.shared().DurableInstances(t, ws)
}

// store opens a store of this target, as another process would.
func (p pgTarget) store(t *testing.T, ws string) backend.Store {
	t.Helper()
	return p.shared().Store(t, ws)
}

// mustRig runs a command that must succeed and returns its result.
func mustRig(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := rig(t, dir, args...)
	if r.code != 0 {
		t.Fatalf("rig %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// terminateSessions ends every session of an application name, waiting for
// each to end, and returns how many there were.
func terminateSessions(t *testing.T, server, app string) int {
	t.Helper()
	return commandtest.TerminateSessions(t, server, app)
}
