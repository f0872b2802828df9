// Package recovery owns what `rig recover` decides about the creates a
// crash cut off (record_create_intents): for each address, the choice to
// import some of the candidates the search found (planner.FindCutOffCreates),
// to forget the creates because they made nothing, or to leave them
// undecided; the choice rig makes unless told (Default), the choices
// given with -select and -absent checked against the creates listed
// (FlagChoices) or given as an answer (ParseAnswer); and the resolution
// of every choice into the objects to import, the creates to forget and
// those left (Resolve, Left). Finding the candidates is the planner's;
// showing them is ui's; reading and rewriting the intents file is
// workdir's.
//
// It imports internal/apply, internal/diag and internal/planner.
package recovery
