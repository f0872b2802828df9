package provisioner

import (
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// LocalExec is the type name of the local-exec provisioner.
const LocalExec = "local-exec"

// Supported reports whether rig runs provisioners of type typ.
func Supported(typ string) bool { return typ == LocalExec }

// localExecSpec is local-exec's configuration, as OpenTofu's schema
// declares it.
var localExecSpec = hcldec.ObjectSpec{
	"command":     &hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true},
	"interpreter": &hcldec.AttrSpec{Name: "interpreter", Type: cty.List(cty.String)},
	"working_dir": &hcldec.AttrSpec{Name: "working_dir", Type: cty.String},
	"environment": &hcldec.AttrSpec{Name: "environment", Type: cty.Map(cty.String)},
	"quiet":       &hcldec.AttrSpec{Name: "quiet", Type: cty.Bool},
}

// Spec returns the decoder spec of the configuration of provisioners of type
// typ, nil for a type rig does not run. The spec is shared: callers must not
// modify it.
func Spec(typ string) hcldec.Spec {
	if typ == LocalExec {
		return localExecSpec
	}
	return nil
}
