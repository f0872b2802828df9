// Package gen generates Terraform-language configurations of terraform_data
// resources in the shapes benchmarks need (chains, fan-outs, fan-ins,
// layered DAGs, count and for_each expansions, create_before_destroy
// layers, layers of for_each module calls and their flat twin), written as
// the files of a configuration directory (Files, Write), and a second
// version of each with a given fraction of inputs changed (updates) and
// triggers changed (replacements).
//
// It imports only the standard library.
package gen
