package lang

import (
	"errors"
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// timeCmpFunc is timecmp(a, b): -1, 0 or 1 as the instant of RFC 3339
// timestamp a is before, the same as or after that of b.
var timeCmpFunc = function.New(&function.Spec{
	Description:  "Compares two timestamps and returns a number that represents the ordering of the instants those timestamps represent.",
	Params:       stringParams("timestamp_a", "timestamp_b"),
	Type:         function.StaticReturnType(cty.Number),
	RefineResult: notNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		a, err := parseRFC3339(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Number), function.NewArgError(0, err)
		}
		b, err := parseRFC3339(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Number), function.NewArgError(1, err)
		}
		return cty.NumberIntVal(int64(a.Compare(b))), nil
	},
})

// timestampParts names the elements of Go's RFC 3339 layout in the words of
// OpenTofu's errors.
var timestampParts = map[string]string{
	"2006": "year", "01": "month", "02": "day of month",
	"15": "hour", "04": "minute", "05": "second", "Z07:00": "UTC offset",
}

// parseRFC3339 parses an RFC 3339 timestamp, explaining a failure by the
// part of the timestamp at fault rather than by Go's layout.
func parseRFC3339(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	var perr *time.ParseError
	if err == nil || !errors.As(err, &perr) {
		return t, err
	}
	const prefix = "not a valid RFC3339 timestamp: "
	if perr.LayoutElem == "" && perr.ValueElem == "" && perr.Message != "" {
		return time.Time{}, fmt.Errorf(prefix+"%w", err)
	}
	switch perr.LayoutElem {
	case "T":
		return time.Time{}, errors.New(prefix + "missing required time introducer 'T'")
	case ":", "-":
		if perr.ValueElem == "" {
			return time.Time{}, fmt.Errorf(prefix+"end of string where %q is expected", perr.LayoutElem)
		}
		return time.Time{}, fmt.Errorf(prefix+"found %q where %q is expected", perr.ValueElem, perr.LayoutElem)
	}
	part, ok := timestampParts[perr.LayoutElem]
	if !ok {
		part = "timestamp segment"
	}
	if perr.ValueElem == "" {
		return time.Time{}, fmt.Errorf(prefix+"end of string before %s", part)
	}
	return time.Time{}, fmt.Errorf(prefix+"cannot use %q as %s", perr.ValueElem, part)
}
