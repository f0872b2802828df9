// Package planfile owns the saved-plan file written by `rig plan -out`: the
// plan's changes, the refreshed prior state, the variables and a snapshot of
// the configuration files, so that `rig apply PLANFILE` applies exactly what
// was planned, and only while the state is still the one planned against.
//
// It imports internal/addrs, internal/ctyjson, internal/marks,
// internal/plan, internal/state, internal/state/statefile and the cty
// libraries.
package planfile
