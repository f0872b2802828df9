// Package diag owns diagnostics: the user-facing problems (errors and
// warnings) that configuration loading, evaluation, planning and applying
// report, each with a summary, a detail and, where there is one, the source
// range it concerns.
//
// It imports only the standard library, github.com/hashicorp/hcl/v2 and
// github.com/zclconf/go-cty.
package diag
