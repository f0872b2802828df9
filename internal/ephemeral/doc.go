// Package ephemeral keeps the ephemeral resources a run has opened: it
// opens each instance through its provider, renews it before the time the
// provider asked, closes those a run releases once it no longer needs
// them, and closes the others, in the reverse of the order they were
// opened, when the run ends — also after an error or an interrupt.
// Nothing it holds is ever written anywhere.
//
// It imports internal/addrs, internal/diag and internal/provider.
package ephemeral
