// Package state owns the world model rig records after each operation: the
// resources and their instances, each instance's current object and any
// deposed objects, with the dependencies, create_before_destroy flag and
// status recorded for each object, plus root outputs, lineage and serial.
// Subpackage statefile reads and writes the version-4 JSON form.
//
// It imports only the standard library, internal/addrs, internal/ctyjson and go-cty.
package state
