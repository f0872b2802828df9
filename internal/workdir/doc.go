// Package workdir owns the working directory: what `rig init` records in
// it and every other command reads, and the engine's inputs loaded from
// it. That is the data directory (.terraform, or TF_DATA_DIR); the
// configuration with the modules init installed (and init's module,
// provider and backend steps, init -from-module); the providers the
// configuration requires, those installed and locked, and their factories;
// rig.hcl's run settings and rig's safeguards (safeguards.go); the root variables (environment, .tfvars files,
// -var and -var-file); the backend record and its hash in Terraform's and
// OpenTofu's forms, the backend configuration with -backend-config and the
// legacy -state options; the state store (encrypted as the configuration's
// encryption block says, locked, its journal recovered), init's state
// migration and errored.tfstate; saved plan files; the states
// terraform_remote_state reads; the workspaces and which of them may be
// selected or deleted (workspacerules.go); the planning options' addresses
// (PlanSelection: -replace, -target, -exclude, their files and -invoke);
// rig's timeline of the last apply and the
// pages of -timeline; the intents of an apply's creates (intents.go); validate's checks beyond loading, with the test
// files; and what rig test takes from the working directory (its
// variables, the modules run blocks name, errored_test.tfstate).
//
// A Dir is a working directory as one command uses it; Options say what
// the environment and the global options say about it. Open prepares what
// an operation needs at once, a Session, which plans, applies and imports
// with it. Every path rig records or reads is relative to the Dir's root
// (the command's working directory, "."), so that tests open directories
// without changing the process's. Nothing here writes to the terminal: what
// a step tells people goes to the io.Writer its caller gives, and prompts
// are the caller's callbacks.
//
// It imports internal/addrs, internal/apply, internal/backend,
// internal/backend/http, internal/backend/local, internal/backend/pg,
// internal/backend/s3, internal/checks, internal/config, internal/corelog,
// internal/diag, internal/encryption, internal/eval, internal/getmodules,
// internal/getproviders, internal/lang, internal/marks, internal/plan,
// internal/plan/planfile, internal/planner, internal/provider, internal/provider/builtin,
// internal/provider/plugin, internal/provisioner, internal/state,
// internal/state/statefile, internal/state/statemgr, internal/testrun,
// internal/timeline and internal/version.
package workdir
