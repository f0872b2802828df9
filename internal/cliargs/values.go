package cliargs

import (
	"fmt"
	"strconv"
	"strings"
)

// Bool is a boolean flag.Value whose value lives elsewhere: Set stores
// it with set, String reads it with get (nil reads false).
type Bool struct {
	set func(bool)
	get func() bool
}

// NewBool returns the flag.Value of a boolean stored by set and read by
// get.
func NewBool(set func(bool), get func() bool) Bool { return Bool{set: set, get: get} }

// IsBoolFlag makes -NAME alone mean true.
func (b Bool) IsBoolFlag() bool { return true }

func (b Bool) String() string {
	if b.get != nil && b.get() {
		return "true"
	}
	return "false"
}

// Set implements flag.Value: the words strconv.ParseBool takes.
func (b Bool) Set(s string) error {
	switch s {
	case "true", "1", "t", "T", "TRUE", "True":
		b.set(true)
	case "false", "0", "f", "F", "FALSE", "False":
		b.set(false)
	default:
		return fmt.Errorf("want true or false")
	}
	return nil
}

// List collects the values of a flag given several times, in order.
type List []string

func (l *List) String() string { return strings.Join(*l, ",") }

// Set implements flag.Value.
func (l *List) Set(s string) error { *l = append(*l, s); return nil }

// Limit is -limit=NAME=N, given as often as there are limits: each is
// passed to Add.
type Limit struct {
	Add func(name string, n int)
}

func (l Limit) String() string { return "" }

// Set implements flag.Value.
func (l Limit) Set(s string) error {
	name, nstr, ok := strings.Cut(s, "=")
	n, err := strconv.Atoi(nstr)
	if !ok || name == "" || err != nil || n <= 0 {
		return fmt.Errorf("want NAME=N with N a whole number greater than zero, like -limit=aws=5")
	}
	l.Add(name, n)
	return nil
}

// Refresh is -refresh: true, false or changed (-refresh alone is true).
// Given records that it was given.
type Refresh struct {
	Value, Changed, Given *bool
}

// IsBoolFlag makes -refresh alone mean true.
func (f Refresh) IsBoolFlag() bool { return true }

func (f Refresh) String() string {
	if f.Value == nil {
		return ""
	}
	if f.Changed != nil && *f.Changed {
		return "changed"
	}
	return strconv.FormatBool(*f.Value)
}

// Set implements flag.Value.
func (f Refresh) Set(v string) error {
	*f.Given = true
	if v == "changed" {
		*f.Value, *f.Changed = true, true
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf(`want true, false or changed`)
	}
	*f.Value, *f.Changed = b, false
	return nil
}
