package command

import (
	"fmt"

	"github.com/rig-iac/rig/internal/workdir"
)

// varFlagValue collects -var (or, with file, -var-file) arguments in
// command-line order.
type varFlagValue struct {
	items *[]workdir.VarArg
	file  bool
}

func (v varFlagValue) String() string { return "" }
func (v varFlagValue) Set(s string) error {
	*v.items = append(*v.items, workdir.VarArg{File: v.file, Value: s})
	return nil
}

// askVariable asks for the value of a required variable that has none: a
// workdir.Asker over the standard streams.
func (m *Meta) askVariable(name, description string) (string, error) {
	fmt.Fprintf(m.Out, "var.%s\n", name)
	if description != "" {
		fmt.Fprintf(m.Out, "  %s\n", description)
	}
	fmt.Fprintf(m.Out, "\n  Enter a value: ")
	line, err := readLine(m.In)
	fmt.Fprintln(m.Out)
	return line, err
}
