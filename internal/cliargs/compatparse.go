package cliargs

import (
	"flag"
	"slices"
)

// CompatGiven is what the compatibility options of one command's parse
// said (AddCompatFlags).
type CompatGiven struct {
	// Refused are the names of the refused options given, in order, each
	// once (RefusedReason says why).
	Refused []string
	// Streamed says -json or -json-into of CompatStream was given; JSON
	// and Into are their values.
	Streamed bool
	JSON     bool
	Into     string
}

// AddCompatFlags defines on fs the compatibility options of its command
// (fs.Name()) that it does not define itself, and returns where their
// parse records what was given. variables defines -var and -var-file
// (CompatVariables), which the command handles as it handles its own.
func AddCompatFlags(fs *flag.FlagSet, variables func(fs *flag.FlagSet)) *CompatGiven {
	given := &CompatGiven{}
	for _, cf := range CompatFlags(fs.Name()) {
		if fs.Lookup(cf.Name) != nil {
			continue
		}
		if cf.Kind == CompatVariables {
			variables(fs)
			continue
		}
		usage := cf.Usage
		if cf.Kind == CompatRefused {
			usage = "Not supported: " + cf.Usage + "."
		}
		fs.Var(compatValue{given: given, flag: cf}, cf.Name, usage)
	}
	return given
}

// RefusedReason returns why command refuses its compatibility option
// name: the usage of the CompatRefused entry.
func RefusedReason(command, name string) string {
	flags := CompatFlags(command)
	if i := slices.IndexFunc(flags, func(cf CompatFlag) bool { return cf.Name == name }); i >= 0 {
		return flags[i].Usage
	}
	return ""
}

// compatValue is the flag.Value of a compatibility option.
type compatValue struct {
	given *CompatGiven
	flag  CompatFlag
}

func (v compatValue) String() string   { return "" }
func (v compatValue) IsBoolFlag() bool { return v.flag.IsBool }

func (v compatValue) Set(s string) error {
	switch v.flag.Kind {
	case CompatRefused:
		if !slices.Contains(v.given.Refused, v.flag.Name) {
			v.given.Refused = append(v.given.Refused, v.flag.Name)
		}
	case CompatStream:
		v.given.Streamed = true
		if v.flag.Name == "json" {
			v.given.JSON = s != "false"
		} else {
			v.given.Into = s
		}
	}
	return nil
}
