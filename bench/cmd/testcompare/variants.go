package main

// fixtureArgs are the arguments OpenTofu's own tests (its
// internal/command/test_test.go) run some of its fixtures with.
var fixtureArgs = map[string][]string{
	"simple_pass_nested_alternate": {"-test-directory", "other"},
	"simple_pass_very_nested":      {"-test-directory", "tests/subdir"},
}

// variants are further runs of a fixture with other arguments, as
// OpenTofu's own tests make them.
var variants = map[string][]struct {
	name string
	args []string
}{
	"simple_pass_very_nested": {{"simple_pass_very_nested_alternate", []string{"-test-directory", "./tests/subdir"}}},
	"multiple_files":          {{"multiple_files_with_filter", []string{"-filter=one.tftest.hcl"}}},
	"variables":               {{"variables_overridden", []string{"-var=input=foo"}}},
}
