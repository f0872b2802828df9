//lint:file-ignore ST1005 its errors are messages users see, worded as OpenTofu words them.

package provisioner

import (
	"errors"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// The type names of the provisioners rig runs.
const (
	LocalExec  = "local-exec"
	File       = "file"
	RemoteExec = "remote-exec"
)

// Supported reports whether rig runs provisioners of type typ.
func Supported(typ string) bool { return Spec(typ) != nil }

// Request is what a provisioner runs with: its configuration (a value of
// Spec(type)) and the connection its resource and its own connection block
// describe together (a value of ConnectionSpec, null when neither has one),
// both without marks.
type Request struct {
	Config     cty.Value
	Connection cty.Value
}

// localExecSpec is local-exec's configuration, as OpenTofu's schema
// declares it.
var localExecSpec = hcldec.ObjectSpec{
	"command":     &hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true},
	"interpreter": &hcldec.AttrSpec{Name: "interpreter", Type: cty.List(cty.String)},
	"working_dir": &hcldec.AttrSpec{Name: "working_dir", Type: cty.String},
	"environment": &hcldec.AttrSpec{Name: "environment", Type: cty.Map(cty.String)},
	"quiet":       &hcldec.AttrSpec{Name: "quiet", Type: cty.Bool},
}

// fileSpec is the file provisioner's configuration.
var fileSpec = hcldec.ObjectSpec{
	"source":      &hcldec.AttrSpec{Name: "source", Type: cty.String},
	"content":     &hcldec.AttrSpec{Name: "content", Type: cty.String},
	"destination": &hcldec.AttrSpec{Name: "destination", Type: cty.String, Required: true},
}

// remoteExecSpec is remote-exec's configuration.
var remoteExecSpec = hcldec.ObjectSpec{
	"inline":  &hcldec.AttrSpec{Name: "inline", Type: cty.List(cty.String)},
	"script":  &hcldec.AttrSpec{Name: "script", Type: cty.String},
	"scripts": &hcldec.AttrSpec{Name: "scripts", Type: cty.List(cty.String)},
}

// connectionSpec is the arguments of a connection block, the superset of
// what OpenTofu's ssh and winrm connections take.
var connectionSpec = func() hcldec.ObjectSpec {
	s := hcldec.ObjectSpec{}
	for _, n := range []string{"type", "user", "password", "host", "timeout", "script_path",
		"private_key", "certificate", "host_key", "agent_identity", "target_platform",
		"bastion_host", "bastion_host_key", "bastion_user", "bastion_password", "bastion_private_key", "bastion_certificate",
		"proxy_scheme", "proxy_host", "proxy_user_name", "proxy_user_password", "cacert"} {
		s[n] = &hcldec.AttrSpec{Name: n, Type: cty.String}
	}
	for _, n := range []string{"port", "bastion_port", "proxy_port"} {
		s[n] = &hcldec.AttrSpec{Name: n, Type: cty.Number}
	}
	for _, n := range []string{"agent", "https", "insecure", "use_ntlm"} {
		s[n] = &hcldec.AttrSpec{Name: n, Type: cty.Bool}
	}
	s["host"] = &hcldec.AttrSpec{Name: "host", Type: cty.String, Required: true}
	return s
}()

// Spec returns the decoder spec of the configuration of provisioners of type
// typ, nil for a type rig does not run. The spec is shared: callers must not
// modify it.
func Spec(typ string) hcldec.Spec {
	switch typ {
	case LocalExec:
		return localExecSpec
	case File:
		return fileSpec
	case RemoteExec:
		return remoteExecSpec
	}
	return nil
}

// ConnectionSpec returns the decoder spec of a connection block. The spec is
// shared: callers must not modify it.
func ConnectionSpec() hcldec.Spec { return connectionSpec }

// CheckArguments reports a combination of arguments a provisioner of type
// typ does not take, in OpenTofu's words; has says whether an argument is
// set. The file provisioner takes one of source and content; remote-exec
// one of inline, script and scripts.
func CheckArguments(typ string, has func(name string) bool) error {
	switch typ {
	case File:
		switch src, content := has("source"), has("content"); {
		case src && content:
			return errors.New("Cannot set both 'source' and 'content'")
		case !src && !content:
			return errors.New("Must provide one of 'source' or 'content'")
		}
	case RemoteExec:
		set := 0
		for _, n := range []string{"inline", "script", "scripts"} {
			if has(n) {
				set++
			}
		}
		if set != 1 {
			return errors.New(`only one of "inline", "script", or "scripts" must be set`)
		}
	}
	return nil
}

// hasFunc returns whether an attribute of config is set (not null).
func hasFunc(config cty.Value) func(string) bool {
	return func(name string) bool { return !config.GetAttr(name).IsNull() }
}
