// Package workdir owns the working directory: what `rig init` records in
// it and every other command reads — the data directory (.terraform, or
// TF_DATA_DIR), the backend record and its hash in Terraform's and
// OpenTofu's forms, the backend configuration with -backend-config and the
// legacy -state options, the state store (encrypted as the configuration's
// encryption block says, locked, its journal recovered), the state
// migration of init, errored.tfstate, saved plan files, the states
// terraform_remote_state reads, and rig's timeline of the last apply.
//
// A Dir is a working directory as one command uses it; Options say what
// the environment and the global options say about it. Every path it
// reads or writes is relative to its root, so that tests open directories
// without changing the process's.
//
// It imports internal/addrs, internal/backend (and its local, pg, http and
// s3 backends), internal/checks, internal/config, internal/corelog,
// internal/diag, internal/encryption, internal/lang, internal/plan (and
// planfile), internal/provider/builtin, internal/state (and statefile and
// statemgr), internal/timeline and internal/version.
package workdir
