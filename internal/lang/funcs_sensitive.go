package lang

import (
	"strconv"

	"github.com/rig-iac/rig/internal/marks"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Mark is a cty value mark the language layer puts on values (marks.Mark).
type Mark = marks.Mark

// Sensitive marks a value whose content must not be shown: the result of
// sensitive(), and every value derived from a marked one (cty carries marks
// through operations and function calls). Its string form is "sensitive".
const Sensitive = marks.Sensitive

// markParams is the single parameter of the functions that inspect or change
// marks: any value, known or not, null or not, marked or not.
func markParams() []function.Parameter {
	return []function.Parameter{{
		Name: "value", Type: cty.DynamicPseudoType,
		AllowUnknown: true, AllowNull: true, AllowMarked: true, AllowDynamicType: true,
	}}
}

func sameType(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil }

// sensitiveFunc marks its argument Sensitive.
var sensitiveFunc = function.New(&function.Spec{
	Description: "Returns its argument marked as sensitive.",
	Params:      markParams(),
	Type:        sameType,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return args[0].Mark(Sensitive), nil
	},
})

// nonsensitiveFunc removes the Sensitive mark from its argument (not from
// values nested inside it) and keeps any other mark. As in OpenTofu 1.10, an
// argument that is not sensitive is no error.
var nonsensitiveFunc = function.New(&function.Spec{
	Description: "Returns its argument without the sensitive mark.",
	Params:      markParams(),
	Type:        sameType,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v, marks := args[0].Unmark()
		delete(marks, Sensitive)
		return v.WithMarks(marks), nil
	},
})

// isSensitiveFunc reports whether its argument itself is marked Sensitive;
// the answer is known even when the value is not.
var isSensitiveFunc = function.New(&function.Spec{
	Description: "Returns whether its argument is marked as sensitive.",
	Params:      markParams(),
	Type:        function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.BoolVal(args[0].HasMark(Sensitive)), nil
	},
})

// redact quotes s for an error message, or stands in for it when any of
// marks is Sensitive or Ephemeral, as OpenTofu words it ("(sensitive
// value)", "(ephemeral value)", "(ephemeral sensitive value)").
func redact(s string, markses ...cty.ValueMarks) string {
	var kind marks.SecretKind
	for _, ms := range markses {
		for m := range ms {
			switch {
			case marks.IsSensitive(m):
				kind |= marks.SecretSensitive
			case m == marks.Ephemeral:
				kind |= marks.SecretEphemeral
			}
		}
	}
	if kind != 0 {
		return kind.Redacted()
	}
	return strconv.Quote(s)
}
