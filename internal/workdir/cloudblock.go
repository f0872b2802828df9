package workdir

import (
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// A terraform block's "cloud" block selects the cloud backend (HCP
// Terraform, or a service that speaks its API), which rig does not
// implement. Rather than use the local state in its place, init refuses
// the block, as it refuses a backend block of a type rig lacks, and every
// other command asks for init, as OpenTofu does in a working directory init
// never initialized for it.

// cloudBlock returns the cloud block of cfg's root module, or nil.
func cloudBlock(cfg *config.Module) *config.RawBlock {
	if cfg == nil || cfg.Terraform == nil {
		return nil
	}
	return cfg.Terraform.Cloud
}

// unsupportedCloud is init's error for a cloud block.
func unsupportedCloud(c *config.RawBlock) diag.Diagnostic {
	summary, detail := unknownBackendType("cloud")
	return diag.At(c.DeclRange, summary, detail)
}

// cloudInitRequired is the error of every other command for a cloud block.
func cloudInitRequired() diag.Diagnostic {
	return diag.Errorf("Cloud backend initialization required: please run \"rig init\"",
		"Reason: the configuration selects the cloud backend (its \"cloud\" block), which \"rig init\" has not initialized in this working directory. rig does not support the cloud backend yet: \"rig init\" will say so; the state is never read from or written to another backend in its place.")
}
