// Package marks owns the marks rig puts on configuration values and what
// they mean for every view of a value: Sensitive, which a value carries
// from sensitive(), a sensitive variable or output, or an attribute a
// provider's schema declares sensitive, and which go-cty carries into
// everything derived from it. It says how marked values are found
// (Contains, Paths), marked again from recorded paths (MarkPaths), ordered
// as state records them (SortPaths), and kept out of text (Redacted,
// Secrets, RedactText), so that renderers, diagnostics and logs hide the
// same values in the same words.
//
// It imports only the standard library and go-cty.
package marks
