package command

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/apply"
)

// limitFlags collects repeated -limit=NAME=N options.
type limitFlags struct{ limits *[]apply.Limit }

func (l limitFlags) String() string { return "" }

func (l limitFlags) Set(s string) error {
	name, nstr, ok := strings.Cut(s, "=")
	n, err := strconv.Atoi(nstr)
	if !ok || name == "" || err != nil || n <= 0 {
		return fmt.Errorf("want NAME=N with N a whole number greater than zero, like -limit=aws=5")
	}
	*l.limits = append(*l.limits, apply.Limit{Name: name, N: n})
	return nil
}
