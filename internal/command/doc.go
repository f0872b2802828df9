// Package command owns the command-line interface: one file per rig
// command, each parsing its flags with the standard flag package, showing
// its help and prompts, and choosing its views; what a command does to the
// working directory (configuration, state, backends, providers, saved
// plans) is internal/workdir's, and the machine-readable documents it
// prints are internal/jsonformat's. It is the only package that chooses
// implementations.
//
// It imports internal/addrs, internal/apply, internal/backend,
// internal/cliargs, internal/config, internal/corelog, internal/dag,
// internal/diag, internal/eval, internal/explain, internal/getmodules,
// internal/getproviders, internal/graphview, internal/hclfmt,
// internal/interrupt, internal/jsonformat, internal/lang, internal/plan,
// internal/plan/planfile, internal/planner, internal/provider, internal/provider/builtin,
// internal/provider/plugin, internal/recovery, internal/state, internal/state/statefile,
// internal/testreport, internal/testrun, internal/timeline, internal/ui,
// internal/version and internal/workdir.
package command
