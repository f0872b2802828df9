package eval

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// evalFrame is one value being computed on first use (a local value, a
// child module's input variable, a module output, a module call's
// expansion) together with the frames of the values whose computation asked
// for it: the evaluation path. A value that its own computation asks for
// again is reported as a loop instead of waiting for itself forever.
//
// Frames are built and read by the one goroutine evaluating the path; the
// reference graphs of plan and apply never let two walks wait on each
// other, so a loop always shows up as a repeat on one path.
type evalFrame struct {
	module addrs.ModuleInstance
	key    lazyKey
	parent *evalFrame
	// inLoop is set on every frame of a path that ran into a loop, so that
	// the value it computes reports the loop to whoever asks for it.
	inLoop bool
}

// push returns the frame for computing key of module mi, asked for by f
// (nil at the start of a path).
func (f *evalFrame) push(mi addrs.ModuleInstance, key lazyKey) *evalFrame {
	return &evalFrame{module: mi, key: key, parent: f}
}

// loop reports whether key of module mi is being computed on f's path; if
// it is, it returns the loop's diagnostic at rng (the reference asking for
// it again) and marks every frame of the path.
func (f *evalFrame) loop(mi addrs.ModuleInstance, key lazyKey, rng hcl.Range) (diag.Diagnostic, bool) {
	var path []*evalFrame
	for cur := f; cur != nil; cur = cur.parent {
		path = append(path, cur)
		if cur.module != mi || cur.key != key {
			continue
		}
		// Every value on the path waits for the loop.
		for p := f; p != nil; p = p.parent {
			p.inLoop = true
		}
		if len(path) == 1 && key.kind == localValue {
			return diag.At(rng, "Self-referencing local value",
				fmt.Sprintf("Local value local.%s cannot use its own result as part of its expression.", key.name)), true
		}
		names := make([]string, len(path))
		for i, p := range path {
			// path runs from the asker back to the repeated value.
			names[len(path)-1-i] = p.String()
		}
		loop := append(names[:len(names):len(names)], names[0])
		return diag.At(rng, "Cycle: "+strings.Join(names, ", "),
			fmt.Sprintf("The configuration refers to itself in a loop: %s. Break the loop by removing one of these references.", strings.Join(loop, " → "))), true
	}
	return diag.Diagnostic{}, false
}

// String returns the value the frame computes as the reference graph's
// cycles name it: local.a, var.a, output.a or module.a, after its module.
func (f *evalFrame) String() string {
	var s string
	switch f.key.kind {
	case variableValue:
		s = "var." + f.key.name
	case localValue:
		s = "local." + f.key.name
	case outputValue:
		s = "output." + f.key.name
	case callExpansion:
		s = "module." + f.key.name
	}
	if f.module.IsRoot() {
		return s
	}
	return f.module.String() + "." + s
}
