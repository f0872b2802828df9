package workdir

import (
	"context"
	"time"

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
