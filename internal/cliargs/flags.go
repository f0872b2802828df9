package cliargs

// HasNoColor reports whether -no-color is among args (before any "--"
// ending the options): it applies from the start of a run, to the errors
// of the options before it too, as in Terraform.
func HasNoColor(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-no-color", "--no-color", "-no-color=true", "--no-color=true":
			return true
		}
	}
	return false
}

// IsHelp reports whether arg asks for help: -help, --help or -h.
func IsHelp(arg string) bool {
	return arg == "-help" || arg == "--help" || arg == "-h"
}
