package command

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

// encryptionOf reads the configuration's encryption block; nil (no
// encryption) when it has none.
func encryptionOf(cfg *config.Module) (*encryption.Encryption, diag.Diagnostics) {
	if cfg == nil || cfg.Terraform == nil {
		return nil, nil
	}
	return encryption.New(cfg.Terraform.Encryption)
}

// encryptedStore is a state store whose snapshots are encrypted as the
// configuration says: Read decrypts, Write encrypts. While states are
// encrypted it keeps no journal, so that no record of an apply is written
// in the clear: the apply then writes whole (encrypted) snapshots.
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
	if s.enc.Encrypts() {
		return nil
	}
	return s.Store.Journal()
}

// writePlan saves a plan to path, encrypted as cfg's plan target says.
func writePlan(path string, pf *planfile.File, cfg *config.Module) error {
	enc, ds := encryptionOf(cfg)
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

// readPlan loads a saved plan from path, decrypting it as cfg's plan target says.
func readPlan(path string, cfg *config.Module) (*planfile.File, error) {
	enc, ds := encryptionOf(cfg)
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
	if err := restoreChecks(pf, cfg); err != nil {
		return nil, fmt.Errorf("reading plan %s: %w", path, err)
	}
	return pf, nil
}

// restoreChecks sets the check results of pf's plan from what the file
// recorded, for the checkable objects of cfg, the configuration planned.
func restoreChecks(pf *planfile.File, cfg *config.Module) error {
	if pf.Plan.Mode == plan.DestroyMode || cfg == nil {
		return nil
	}
	var err error
	if pf.Plan.Checks, err = checks.UnmarshalDetail(cfg, pf.CheckResults); err != nil {
		return fmt.Errorf("check results: %w", err)
	}
	return nil
}
