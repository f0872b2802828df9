package workdir

import (
	"context"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/corelog"
)

// loggedStore is a state store whose writes the log records: where, how
// many bytes, how long (never what).
type loggedStore struct {
	backend.Store
	log *corelog.Logger
}

func (s loggedStore) Write(ctx context.Context, data []byte) error {
	start := time.Now()
	err := s.Store.Write(ctx, data)
	if err != nil {
		s.log.Error("state write failed", corelog.String("path", s.Path()), corelog.Err(err))
		return err
	}
	s.log.Info("state written", corelog.String("path", s.Path()), corelog.Int("bytes", len(data)), corelog.Duration("elapsed", time.Since(start)))
	return nil
}

func (s loggedStore) Journal() backend.Journal {
	j := s.Store.Journal()
	if j == nil {
		return nil
	}
	return loggedJournal{Journal: j, log: s.log, path: s.Path()}
}

// loggedJournal is a state journal whose appends the log records.
type loggedJournal struct {
	backend.Journal
	log  *corelog.Logger
	path string
}

func (j loggedJournal) Append(ctx context.Context, record []byte) error {
	err := j.Journal.Append(ctx, record)
	if err != nil {
		j.log.Error("state journal append failed", corelog.String("path", j.path), corelog.Err(err))
		return err
	}
	j.log.Debug("state journal record appended", corelog.String("path", j.path), corelog.Int("bytes", len(record)))
	return nil
}

// LogHooks returns the hooks that record each operation of an apply in
// the core log; nil when the log is off.
func (d *Dir) LogHooks() apply.Hooks {
	if !d.opts.Log.Enabled(corelog.Info) {
		return nil
	}
	return logHooks{log: d.opts.Log}
}

// logHooks records each operation of an apply: its start, and its end with
// how long it took and how it ended. It never records values.
type logHooks struct {
	apply.NoHooks
	log *corelog.Logger
}

// PreApply records the start of op.
func (h logHooks) PreApply(op apply.Operation) {
	h.log.Info("operation started", operationAttrs(op)...)
}

// PostApply records the end of op. A failure's message is not recorded:
// a provider's may quote values.
func (h logHooks) PostApply(op apply.Operation, res apply.Result) {
	attrs := append(operationAttrs(op), corelog.Duration("elapsed", res.Elapsed))
	if res.Err != nil {
		h.log.Warn("operation failed", attrs...)
		return
	}
	h.log.Info("operation complete", attrs...)
}

func operationAttrs(op apply.Operation) []corelog.Attr {
	obj := addrs.ObjectAddr{Instance: op.Addr, Deposed: op.Deposed}
	return []corelog.Attr{corelog.String("address", obj.String()), corelog.String("action", op.Action.String())}
}

// LogGraph records the size of an operation graph.
func (d *Dir) LogGraph(g *apply.Graph) {
	if g == nil {
		return
	}
	d.opts.Log.Info("operation graph built", corelog.Int("operations", g.G.Len()), corelog.Int("edges", g.G.EdgeCount()))
}

// WritesElsewhere implements backend.ElsewhereWriter for the store logged.
func (s loggedStore) WritesElsewhere() bool { return backend.WritesElsewhere(s.Store) }
