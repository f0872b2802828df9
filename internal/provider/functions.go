package provider

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
)

// FunctionSpec describes a provider-defined function, as the provider's
// schema or its GetFunctions call reports it. Configurations call it as
// provider::LOCALNAME::NAME(args).
type FunctionSpec struct {
	Parameters []FunctionParameter
	// VariadicParameter, when non-nil, accepts zero or more further arguments.
	VariadicParameter  *FunctionParameter
	ReturnType         cty.Type
	Summary            string
	Description        string
	DeprecationMessage string
}

// FunctionParameter describes one parameter of a FunctionSpec.
type FunctionParameter struct {
	Name string
	// Type is the parameter's type constraint; cty.DynamicPseudoType accepts any.
	Type cty.Type
	// AllowNullValue says that a null argument may be passed.
	AllowNullValue bool
	// AllowUnknownValues says that an unknown argument (or one containing
	// unknown values) may be passed; otherwise the engine returns an
	// unknown result without calling the function.
	AllowUnknownValues bool
	Description        string
}

// FunctionError is a failure a provider-defined function reports about its
// own arguments or work, as opposed to a failed call.
type FunctionError struct {
	Text string
	// Argument is the index of the argument at fault, or nil.
	Argument *int64
}

// Error returns the failure text, naming the argument if there is one.
func (e *FunctionError) Error() string {
	if e.Argument != nil {
		return fmt.Sprintf("argument %d: %s", *e.Argument, e.Text)
	}
	return e.Text
}
