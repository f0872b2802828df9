package workdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rig-iac/rig/internal/timeline"
)

// TimelinePath is where apply and destroy keep the record of the
// operations they ran (timeline.Record as JSON, mode 0600), for
// "rig show -timeline"; each run that ran an operation replaces it. It is
// .terraform/rig-timeline.json, or rig-timeline.json in TF_DATA_DIR.
func (d *Dir) TimelinePath() string { return d.DataPath("rig-timeline.json") }

// SaveTimeline writes r to TimelinePath, creating its directory if needed.
func (d *Dir) SaveTimeline(r *timeline.Record) error {
	timelineFile := d.TimelinePath()
	b, err := r.Marshal()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(timelineFile), 0o755); err != nil {
		return err
	}
	tmp := timelineFile + ".tmp"
	if err := writePrivateFile(tmp, b); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, timelineFile); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace %s: %w", timelineFile, err)
	}
	return nil
}

// LoadTimeline reads TimelinePath; ok is false when there is none.
func (d *Dir) LoadTimeline() (r *timeline.Record, ok bool, err error) {
	timelineFile := d.TimelinePath()
	b, err := os.ReadFile(timelineFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	r, err = timeline.Unmarshal(b)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", timelineFile, err)
	}
	return r, true, nil
}
