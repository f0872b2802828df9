package cliargs

import "flag"

// Parse parses args with fs, flags and positional arguments in any order,
// as in `rig apply next.plan -no-color` or `rig output name -json`: "--"
// ends the flags, and a flag's value given as the next argument (`-out
// next.plan`) is the flag's, never a positional argument. Without error,
// fs.Args() holds the positional arguments in the order given; -h, -help
// or --help is flag.ErrHelp.
func Parse(fs *flag.FlagSet, args []string) error {
	var positional []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return err
		}
		remaining := fs.Args()
		if consumed := len(rest) - len(remaining); consumed > 0 && rest[consumed-1] == "--" {
			positional = append(positional, remaining...)
			break
		}
		if len(remaining) == 0 {
			break
		}
		positional = append(positional, remaining[0])
		rest = remaining[1:]
	}
	// Parsing again after "--" leaves the flags as they are and makes the
	// positional arguments fs.Args().
	return fs.Parse(append([]string{"--"}, positional...))
}
