package provider

import (
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/rig-iac/rig/bench/slowcloud/cloud"
)

// fields returns the attributes of object value v (nil when v is null).
func fields(v tftypes.Value) (map[string]tftypes.Value, error) {
	if v.IsNull() || !v.IsKnown() {
		return nil, nil
	}
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// decode reads a dynamic value of type typ and its attributes.
func decode(dv *tfprotov6.DynamicValue, typ tftypes.Type) (tftypes.Value, map[string]tftypes.Value, error) {
	if dv == nil {
		return tftypes.NewValue(typ, nil), nil, nil
	}
	v, err := dv.Unmarshal(typ)
	if err != nil {
		return v, nil, err
	}
	m, err := fields(v)
	return v, m, err
}

// str returns the string v holds, and false when it is null or unknown.
func str(v tftypes.Value) (string, bool) {
	if v.IsNull() || !v.IsKnown() {
		return "", false
	}
	var s string
	if err := v.As(&s); err != nil {
		return "", false
	}
	return s, true
}

func num(v tftypes.Value) (int64, bool) {
	if v.IsNull() || !v.IsKnown() {
		return 0, false
	}
	var f big.Float
	if err := v.As(&f); err != nil {
		return 0, false
	}
	n, _ := f.Int64()
	return n, true
}

func tags(v tftypes.Value) map[string]string {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		out[k], _ = str(e)
	}
	return out
}

// object is the cloud object the attributes describe.
func object(m map[string]tftypes.Value) cloud.Object {
	var o cloud.Object
	o.ID, _ = str(m["id"])
	o.Name, _ = str(m["name"])
	o.Value, _ = str(m["value"])
	o.Tags = tags(m["tags"])
	o.Revision, _ = num(m["revision"])
	return o
}

// stateOf is the state value of cloud object o: an empty value or tag map
// is null, as a configuration leaves it.
func stateOf(o cloud.Object) tftypes.Value {
	value := tftypes.NewValue(tftypes.String, nil)
	if o.Value != "" {
		value = tftypes.NewValue(tftypes.String, o.Value)
	}
	tagVal := tftypes.NewValue(tagsType, nil)
	if len(o.Tags) > 0 {
		m := make(map[string]tftypes.Value, len(o.Tags))
		for k, v := range o.Tags {
			m[k] = tftypes.NewValue(tftypes.String, v)
		}
		tagVal = tftypes.NewValue(tagsType, m)
	}
	return tftypes.NewValue(objectType, map[string]tftypes.Value{
		"id":       tftypes.NewValue(tftypes.String, o.ID),
		"name":     tftypes.NewValue(tftypes.String, o.Name),
		"value":    value,
		"tags":     tagVal,
		"revision": tftypes.NewValue(tftypes.Number, big.NewFloat(float64(o.Revision))),
	})
}

func encode(v tftypes.Value) (*tfprotov6.DynamicValue, error) {
	dv, err := tfprotov6.NewDynamicValue(v.Type(), v)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", v.Type(), err)
	}
	return &dv, nil
}

func errorDiag(summary string, err error) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: summary, Detail: err.Error()}}
}
