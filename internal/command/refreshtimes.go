package command

import (
	"fmt"
	"strconv"
)

// refreshFlag is -refresh: true, false or changed (-refresh alone is true).
type refreshFlag struct {
	refresh, changed, set *bool
}

func (f refreshFlag) IsBoolFlag() bool { return true }

func (f refreshFlag) String() string {
	if f.refresh == nil {
		return ""
	}
	if f.changed != nil && *f.changed {
		return "changed"
	}
	return strconv.FormatBool(*f.refresh)
}

func (f refreshFlag) Set(v string) error {
	*f.set = true
	if v == "changed" {
		*f.refresh, *f.changed = true, true
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf(`want true, false or changed`)
	}
	*f.refresh, *f.changed = b, false
	return nil
}
