package workdir

import (
	"context"
	"fmt"
	"os"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/encryption"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/plan/planfile"
)

// EncryptionOf reads the configuration's encryption block, with what the
// TF_ENCRYPTION environment variable adds to it or overrides
// (encryption.NewWithEnv); nil (no encryption) when neither says any.
func EncryptionOf(cfg *config.Module) (*encryption.Encryption, diag.Diagnostics) {
	var block *config.RawBlock
	if cfg != nil && cfg.Terraform != nil {
		block = cfg.Terraform.Encryption
	}
	return encryption.NewWithEnv(block, cfg, os.Getenv(encryption.EnvName))
}

// encryptedStore is a state store whose snapshots are encrypted as the
// configuration says: Read decrypts, Write encrypts; so is each record of
// its journal, so that nothing of an apply is written in the clear.
type encryptedStore struct {
	backend.Store
	enc *encryption.Encryption
}

func (s encryptedStore) Read(ctx context.Context) ([]byte, error) {
	data, err := s.Store.Read(ctx)
	if err != nil || data == nil {
		return data, err
	}
	plain, err := s.enc.DecryptState(data)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.Path(), err)
	}
	return plain, nil
}

func (s encryptedStore) Write(ctx context.Context, data []byte) error {
	sealed, err := s.enc.EncryptState(data)
	if err != nil {
		return fmt.Errorf("writing %s: %w", s.Path(), err)
	}
	return s.Store.Write(ctx, sealed)
}

func (s encryptedStore) Journal() backend.Journal {
	j := s.Store.Journal()
	if j == nil {
		return nil
	}
	return encryptedJournal{Journal: j, enc: s.enc, path: s.Path()}
}

// encryptedJournal seals each record as the state it belongs to is sealed
// (encryption.EncryptRecord) and opens them when loaded. What begins a
// journal (the snapshot's lineage and serial) stays in the clear, as it
// does in an encrypted state.
type encryptedJournal struct {
	backend.Journal
	enc  *encryption.Encryption
	path string
}

func (j encryptedJournal) Append(ctx context.Context, record []byte) error {
	sealed, err := j.enc.EncryptRecord(record)
	if err != nil {
		return fmt.Errorf("writing the journal of %s: %w", j.path, err)
	}
	return j.Journal.Append(ctx, sealed)
}

func (j encryptedJournal) Load(ctx context.Context) (*backend.JournalContent, error) {
	c, err := j.Journal.Load(ctx)
	if err != nil || c == nil {
		return c, err
	}
	out := &backend.JournalContent{Lineage: c.Lineage, Serial: c.Serial, Records: make([][]byte, len(c.Records))}
	for i, r := range c.Records {
		if out.Records[i], err = j.enc.DecryptRecord(r); err != nil {
			return nil, fmt.Errorf("reading the journal of %s: record %d: %w", j.path, i+1, err)
		}
	}
	return out, nil
}

// WritePlan saves a plan to path, encrypted as cfg's plan target says.
func WritePlan(path string, pf *planfile.File, cfg *config.Module) error {
	enc, ds := EncryptionOf(cfg)
	if ds.HasErrors() {
		return ds.Err()
	}
	data, err := planfile.Marshal(pf)
	if err != nil {
		return err
	}
	if data, err = enc.EncryptPlan(data); err != nil {
		return fmt.Errorf("writing plan %s: %w", path, err)
	}
	return planfile.WriteBytes(path, data)
}

// ReadPlan loads a saved plan from path, decrypting it as cfg's plan
// target says, with the results of cfg's checks it recorded.
func ReadPlan(path string, cfg *config.Module) (*planfile.File, error) {
	enc, ds := EncryptionOf(cfg)
	if ds.HasErrors() {
		return nil, ds.Err()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading plan %s: %w", path, err)
	}
	if data, err = enc.DecryptPlan(data); err != nil {
		return nil, fmt.Errorf("reading plan %s: %w", path, err)
	}
	pf, err := planfile.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("reading plan %s: %w", path, err)
	}
	if err := RestoreChecks(pf, cfg); err != nil {
		return nil, fmt.Errorf("reading plan %s: %w", path, err)
	}
	return pf, nil
}

// RestoreChecks sets the check results of pf's plan from what the file
// recorded, for the checkable objects of cfg, the configuration planned.
func RestoreChecks(pf *planfile.File, cfg *config.Module) error {
	if pf.Plan.Mode == plan.DestroyMode || cfg == nil {
		return nil
	}
	var err error
	if pf.Plan.Checks, err = checks.UnmarshalDetail(cfg, pf.CheckResults); err != nil {
		return fmt.Errorf("check results: %w", err)
	}
	return nil
}

// WritesElsewhere implements backend.ElsewhereWriter for the store
// encrypted.
func (s encryptedStore) WritesElsewhere() bool { return backend.WritesElsewhere(s.Store) }
