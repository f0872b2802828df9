package apply

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provisioner"
	"github.com/rig-iac/rig/internal/state"
)

// Provisioner runs the provisioners of one type. Run is called from worker
// goroutines, possibly concurrently; command/ wires provisioner.Runner for
// local-exec, provisioner.RemoteExecRunner and provisioner.FileRunner.
type Provisioner interface {
	// Run runs one provisioner with its configuration (a value of
	// provisioner.Spec(type)) and connection (a value of
	// provisioner.ConnectionSpec(), or null), both without marks, calling
	// output with each line it writes, from one goroutine at a time.
	// Cancelling ctx stops it; it then returns an error.
	Run(ctx context.Context, req provisioner.Request, output func(string)) error
}

// suppressedOutput stands for each line of a provisioner whose
// configuration holds a sensitive value, as OpenTofu words it.
const suppressedOutput = "(output suppressed due to sensitive value in config)"

// suppressedEphemeralOutput stands for each line of a provisioner whose
// configuration holds an ephemeral value, as OpenTofu words it.
const suppressedEphemeralOutput = "(output suppressed due to ephemeral value in config)"

// ephemeralIn reports whether any of a configuration's marks is ephemeral.
func ephemeralIn(pvm []cty.PathValueMarks) bool {
	for _, pm := range pvm {
		if _, ok := pm.Marks[marks.Ephemeral]; ok {
			return true
		}
	}
	return false
}

// hasProvisioners reports whether r has a provisioner that runs when.
func hasProvisioners(r *config.Resource, when config.ProvisionerWhen) bool {
	for _, p := range r.Provisioners {
		if p.When == when {
			return true
		}
	}
	return false
}

// provision runs r's provisioners that run when, in the order written, for
// the object self of the resource instance op concerns, evaluated in its
// module instance's scope with inst. A provisioner that fails ends the
// sequence with an error diagnostic, unless its on_failure is continue:
// then, as in OpenTofu, its failure is reported to the hooks only and the
// next one runs. Cancelling ctx stops the running provisioner.
func (a *applier) provision(ctx context.Context, op Operation, r *config.Resource, when config.ProvisionerWhen, self cty.Value, inst lang.InstanceData) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, p := range r.Provisioners {
		if p.When != when {
			continue
		}
		spec, run := provisioner.Spec(p.Type), a.opts.Provisioners[p.Type]
		if spec == nil || run == nil {
			// The plan refuses these; a saved plan may meet other options.
			return ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: "Unsupported provisioner", Address: op.Addr.String(), Subject: p.TypeRange.Ptr(),
				Detail: fmt.Sprintf("rig cannot run the %q provisioner here.", p.Type)})
		}
		scope := a.eval.Scope(op.Addr.Module, inst)
		scope.Self = self
		val, more := scope.EvalBlock(p.Config, spec)
		ds = ds.Append(more.WithAddress(addrs.ObjectAddr{Instance: op.Addr}))
		if ds.HasErrors() {
			return ds
		}
		conn, more := a.connection(scope, r, p)
		ds = ds.Append(more.WithAddress(addrs.ObjectAddr{Instance: op.Addr}))
		if ds.HasErrors() {
			return ds
		}
		// A provisioner's errors quote its command, paths and hosts: the
		// texts of sensitive values there are replaced (OpenTofu and
		// Terraform print them).
		secrets := append(marks.Secrets(val), marks.Secrets(conn)...)
		val, valMarks := val.UnmarkDeepWithPaths()
		conn, _ = conn.UnmarkDeep()
		output := func(line string) { a.opts.Hooks.ProvisionOutput(op, p.Type, line) }
		if ephemeralIn(valMarks) {
			output = func(line string) {
				secrets = append(secrets, line)
				a.opts.Hooks.ProvisionOutput(op, p.Type, suppressedEphemeralOutput)
			}
		} else if sensitive(valMarks) {
			// Output that is not shown is not quoted by the error either.
			output = func(line string) {
				secrets = append(secrets, line)
				a.opts.Hooks.ProvisionOutput(op, p.Type, suppressedOutput)
			}
		}
		a.opts.Hooks.PreProvision(op, p.Type)
		err := run.Run(ctx, provisioner.Request{Config: val, Connection: conn}, output)
		if err != nil && len(secrets) > 0 {
			err = errors.New(marks.RedactText(err.Error(), secrets))
		}
		a.opts.Hooks.PostProvision(op, p.Type, err)
		if err == nil || p.OnFailure == config.ProvisionerOnFailureContinue {
			continue
		}
		// As OpenTofu places it: where the provisioner's body starts.
		return ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: p.Type + " provisioner error", Detail: err.Error(),
			Address: op.Addr.String(), Subject: p.Config.MissingItemRange().Ptr()})
	}
	return ds
}

// connection evaluates the connection p runs with, as OpenTofu does for
// every provisioner: r's connection block with the arguments of p's own in
// place of those of the same name; null when neither has one. The value
// keeps its marks; the caller drops them (as in OpenTofu, a sensitive
// connection argument does not hide the output).
func (a *applier) connection(scope *lang.Scope, r *config.Resource, p *config.Provisioner) (cty.Value, diag.Diagnostics) {
	var body hcl.Body
	switch {
	case r.Connection != nil && p.Connection != nil:
		body = config.OverriddenBody{Base: r.Connection.Config, Override: p.Connection.Config}
	case p.Connection != nil:
		body = p.Connection.Config
	case r.Connection != nil:
		body = r.Connection.Config
	default:
		return cty.NullVal(hcldec.ImpliedType(provisioner.ConnectionSpec())), nil
	}
	val, ds := scope.EvalBlock(body, provisioner.ConnectionSpec())
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	return val, ds
}

func sensitive(marks []cty.PathValueMarks) bool {
	for _, pm := range marks {
		if _, ok := pm.Marks[lang.Sensitive]; ok {
			return true
		}
	}
	return false
}

// destroyInstanceData is what a destroy-time provisioner sees of its
// instance: count.index or each.key, from the key alone (each.value is not
// available to it).
func destroyInstanceData(k addrs.InstanceKey) lang.InstanceData {
	switch {
	case k.IsInt():
		return lang.InstanceData{CountIndex: cty.NumberIntVal(int64(k.Int()))}
	case k.IsString():
		return lang.InstanceData{EachKey: cty.StringVal(k.Str())}
	}
	return lang.InstanceData{}
}

// ProvisionerTypes lists, in the order written, the types of the
// provisioners that run as part of op when p is applied with cfg: a
// create's create-time ones, and a delete's destroy-time ones (its
// resource block's, or a destroying removed block's), which never run
// for a deposed or tainted object.
func ProvisionerTypes(cfg *config.Module, p *plan.Plan, op Op, c *plan.ResourceInstanceChange) []string {
	if cfg == nil || c == nil || op.Addr.Resource.Resource.Mode != addrs.Managed {
		return nil
	}
	addr := op.Addr.ContainingResource().InConfig()
	var r *config.Resource
	var when config.ProvisionerWhen
	switch {
	case op.Kind == OpDelete:
		if op.Deposed != addrs.NotDeposed {
			return nil
		}
		if obj := p.PriorState.Object(addrs.ObjectAddr{Instance: op.Addr}); obj != nil && obj.Status == state.Tainted {
			return nil
		}
		r, when = cfg.ConfigResource(addr), config.ProvisionerWhenDestroy
		if r == nil {
			if rm := cfg.RemovedResource(addr); rm != nil && rm.Destroy {
				r = rm.ProvisionedResource()
			}
		}
	case c.Action.Creates():
		r, when = cfg.ConfigResource(addr), config.ProvisionerWhenCreate
	}
	if r == nil {
		return nil
	}
	var types []string
	for _, pr := range r.Provisioners {
		if pr.When == when {
			types = append(types, pr.Type)
		}
	}
	return types
}
