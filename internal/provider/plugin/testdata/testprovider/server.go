package main

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
)

var (
	ruleType  = cty.Object(map[string]cty.Type{"port": cty.Number, "proto": cty.String})
	thingType = cty.Object(map[string]cty.Type{
		"id":       cty.String,
		"name":     cty.String,
		"size":     cty.Number,
		"tags":     cty.Map(cty.String),
		"dyn":      cty.DynamicPseudoType,
		"created":  cty.String,
		"rule":     cty.List(ruleType),
		"settings": cty.Object(map[string]cty.Type{"enabled": cty.Bool}),
		"labels":   cty.Map(cty.Object(map[string]cty.Type{"value": cty.String})),
		"group":    cty.Object(map[string]cty.Type{"x": cty.String}),
		"set_rule": cty.Set(cty.Object(map[string]cty.Type{"cidr": cty.String})),
	})
	nestedType = cty.Object(map[string]cty.Type{
		"id":     cty.String,
		"items":  cty.List(cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number})),
		"single": cty.Object(map[string]cty.Type{"c": cty.String}),
	})
	echoType     = cty.Object(map[string]cty.Type{"input": cty.String, "output": cty.String})
	configType   = cty.Object(map[string]cty.Type{"region": cty.String})
	metaType     = cty.Object(map[string]cty.Type{"module_name": cty.String})
	thingVersion = int64(1)
)

type server struct {
	tfplugin6.UnimplementedProviderServer

	mu     sync.Mutex
	region string

	stopOnce sync.Once
	stopped  chan struct{}
}

func newServer() *server { return &server{stopped: make(chan struct{})} }

func typeJSON(ty cty.Type) []byte {
	b, err := ctyjson.MarshalType(ty)
	if err != nil {
		panic(err)
	}
	return b
}

func attr(name string, ty cty.Type, flags string) *tfplugin6.Schema_Attribute {
	return &tfplugin6.Schema_Attribute{
		Name:      name,
		Type:      typeJSON(ty),
		Required:  strings.Contains(flags, "r"),
		Optional:  strings.Contains(flags, "o"),
		Computed:  strings.Contains(flags, "c"),
		Sensitive: strings.Contains(flags, "s"),
		WriteOnly: strings.Contains(flags, "w"),
	}
}

func block(nesting tfplugin6.Schema_NestedBlock_NestingMode, name string, min, max int64, attrs ...*tfplugin6.Schema_Attribute) *tfplugin6.Schema_NestedBlock {
	return &tfplugin6.Schema_NestedBlock{TypeName: name, Nesting: nesting, MinItems: min, MaxItems: max,
		Block: &tfplugin6.Schema_Block{Attributes: attrs}}
}

func schemaResponse() *tfplugin6.GetProviderSchema_Response {
	thing := &tfplugin6.Schema{Version: thingVersion, Block: &tfplugin6.Schema_Block{
		Description: "A thing.",
		Attributes: []*tfplugin6.Schema_Attribute{
			attr("id", cty.String, "c"),
			attr("name", cty.String, "r"),
			attr("size", cty.Number, "oc"),
			attr("tags", cty.Map(cty.String), "o"),
			attr("dyn", cty.DynamicPseudoType, "o"),
			attr("created", cty.String, "cs"),
		},
		BlockTypes: []*tfplugin6.Schema_NestedBlock{
			block(tfplugin6.Schema_NestedBlock_LIST, "rule", 0, 3, attr("port", cty.Number, "r"), attr("proto", cty.String, "o")),
			block(tfplugin6.Schema_NestedBlock_SINGLE, "settings", 0, 0, attr("enabled", cty.Bool, "o")),
			block(tfplugin6.Schema_NestedBlock_MAP, "labels", 0, 0, attr("value", cty.String, "o")),
			block(tfplugin6.Schema_NestedBlock_GROUP, "group", 0, 0, attr("x", cty.String, "o")),
			block(tfplugin6.Schema_NestedBlock_SET, "set_rule", 0, 0, attr("cidr", cty.String, "r")),
		},
	}}
	nested := &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{
		attr("id", cty.String, "c"),
		{Name: "items", Optional: true, NestedType: &tfplugin6.Schema_Object{
			Nesting: tfplugin6.Schema_Object_LIST,
			Attributes: []*tfplugin6.Schema_Attribute{
				attr("a", cty.String, "o"),
				attr("b", cty.Number, "o"),
			},
		}},
		{Name: "single", Optional: true, NestedType: &tfplugin6.Schema_Object{
			Nesting:    tfplugin6.Schema_Object_SINGLE,
			Attributes: []*tfplugin6.Schema_Attribute{attr("c", cty.String, "o")},
		}},
	}}}
	return &tfplugin6.GetProviderSchema_Response{
		Provider:          &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{attr("region", cty.String, "o")}}},
		ProviderMeta:      &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{attr("module_name", cty.String, "o")}}},
		ResourceSchemas:   map[string]*tfplugin6.Schema{"test_thing": thing, "test_nested": nested, "test_file": fileSchema(), "test_secret": secretSchema(), "test_service": serviceSchema()},
		DataSourceSchemas: map[string]*tfplugin6.Schema{"test_echo": {Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{attr("input", cty.String, "r"), attr("output", cty.String, "c")}}}, "test_secret": secretDataSchema(), "test_probe": probeSchema()},
		Functions: map[string]*tfplugin6.Function{"upper": {
			Parameters: []*tfplugin6.Function_Parameter{{Name: "s", Type: typeJSON(cty.String)}},
			Return:     &tfplugin6.Function_Return{Type: typeJSON(cty.String)},
			Summary:    "Upper-cases a string.",
		}},
		ServerCapabilities:       &tfplugin6.ServerCapabilities{PlanDestroy: true, MoveResourceState: true},
		ListResourceSchemas:      map[string]*tfplugin6.Schema{"test_file": fileListSchema()},
		EphemeralResourceSchemas: map[string]*tfplugin6.Schema{"test_token": tokenSchema()},
		ActionSchemas:            actionSchemas(),
	}
}

func (s *server) GetProviderSchema(context.Context, *tfplugin6.GetProviderSchema_Request) (*tfplugin6.GetProviderSchema_Response, error) {
	return schemaResponse(), nil
}

func (s *server) GetFunctions(context.Context, *tfplugin6.GetFunctions_Request) (*tfplugin6.GetFunctions_Response, error) {
	return &tfplugin6.GetFunctions_Response{Functions: schemaResponse().Functions}, nil
}

func decode(dv *tfplugin6.DynamicValue, ty cty.Type) (cty.Value, error) {
	switch {
	case len(dv.GetMsgpack()) > 0:
		return msgpack.Unmarshal(dv.GetMsgpack(), ty)
	case len(dv.GetJson()) > 0:
		return ctyjson.Unmarshal(dv.GetJson(), ty)
	}
	return cty.NilVal, fmt.Errorf("empty DynamicValue")
}

func encode(v cty.Value, ty cty.Type) *tfplugin6.DynamicValue {
	b, err := msgpack.Marshal(v, ty)
	if err != nil {
		panic(err)
	}
	return &tfplugin6.DynamicValue{Msgpack: b}
}

func errDiag(summary, detail string, path ...*tfplugin6.AttributePath_Step) *tfplugin6.Diagnostic {
	d := &tfplugin6.Diagnostic{Severity: tfplugin6.Diagnostic_ERROR, Summary: summary, Detail: detail}
	if len(path) > 0 {
		d.Attribute = &tfplugin6.AttributePath{Steps: path}
	}
	return d
}

func attrStep(name string) *tfplugin6.AttributePath_Step {
	return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_AttributeName{AttributeName: name}}
}

func intStep(i int64) *tfplugin6.AttributePath_Step {
	return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_ElementKeyInt{ElementKeyInt: i}}
}

func keyStep(k string) *tfplugin6.AttributePath_Step {
	return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_ElementKeyString{ElementKeyString: k}}
}

func decodeFailed(err error) []*tfplugin6.Diagnostic {
	return []*tfplugin6.Diagnostic{errDiag("Undecodable value", err.Error())}
}

func typeOf(typeName string) (cty.Type, bool) {
	switch typeName {
	case "test_thing":
		return thingType, true
	case "test_nested":
		return nestedType, true
	case "test_file":
		return fileType, true
	case "test_secret":
		return secretType, true
	case "test_service":
		return serviceType, true
	}
	return cty.NilType, false
}

func (s *server) ValidateProviderConfig(_ context.Context, req *tfplugin6.ValidateProviderConfig_Request) (*tfplugin6.ValidateProviderConfig_Response, error) {
	cfg, err := decode(req.Config, configType)
	if err != nil {
		return &tfplugin6.ValidateProviderConfig_Response{Diagnostics: decodeFailed(err)}, nil
	}
	if r := cfg.GetAttr("region"); r.IsKnown() && !r.IsNull() && r.AsString() == "bad" {
		return &tfplugin6.ValidateProviderConfig_Response{Diagnostics: []*tfplugin6.Diagnostic{
			errDiag("Invalid region", `"bad" is not a region.`, attrStep("region"))}}, nil
	}
	return &tfplugin6.ValidateProviderConfig_Response{}, nil
}

func (s *server) ConfigureProvider(_ context.Context, req *tfplugin6.ConfigureProvider_Request) (*tfplugin6.ConfigureProvider_Response, error) {
	cfg, err := decode(req.Config, configType)
	if err != nil {
		return &tfplugin6.ConfigureProvider_Response{Diagnostics: decodeFailed(err)}, nil
	}
	region := ""
	if r := cfg.GetAttr("region"); r.IsKnown() && !r.IsNull() {
		region = r.AsString()
	}
	if region == "fail" {
		return &tfplugin6.ConfigureProvider_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Configuration failed", "terraform version "+req.TerraformVersion)}}, nil
	}
	s.mu.Lock()
	s.region = region
	s.mu.Unlock()
	logger.Debug("configured region " + region)
	return &tfplugin6.ConfigureProvider_Response{}, nil
}

func (s *server) ValidateResourceConfig(_ context.Context, req *tfplugin6.ValidateResourceConfig_Request) (*tfplugin6.ValidateResourceConfig_Response, error) {
	ty, ok := typeOf(req.TypeName)
	if !ok {
		return &tfplugin6.ValidateResourceConfig_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Unknown type", req.TypeName)}}, nil
	}
	cfg, err := decode(req.Config, ty)
	if err != nil {
		return &tfplugin6.ValidateResourceConfig_Response{Diagnostics: decodeFailed(err)}, nil
	}
	var ds []*tfplugin6.Diagnostic
	if req.TypeName == "test_secret" {
		return &tfplugin6.ValidateResourceConfig_Response{Diagnostics: validateSecret(cfg)}, nil
	}
	if req.TypeName != "test_thing" {
		return &tfplugin6.ValidateResourceConfig_Response{}, nil
	}
	if name := cfg.GetAttr("name"); name.IsKnown() && !name.IsNull() {
		switch name.AsString() {
		case "invalid":
			ds = append(ds, errDiag("Invalid name", `The name "invalid" is reserved.`, attrStep("name")))
		case "warn":
			ds = append(ds, &tfplugin6.Diagnostic{Severity: tfplugin6.Diagnostic_WARNING, Summary: "Questionable name"})
		}
	}
	if rules := cfg.GetAttr("rule"); rules.IsKnown() && !rules.IsNull() {
		for i, r := range rules.AsValueSlice() {
			port := r.GetAttr("port")
			if port.IsKnown() && !port.IsNull() && port.AsBigFloat().Cmp(big.NewFloat(65535)) > 0 {
				ds = append(ds, errDiag("Invalid port", "Ports go up to 65535.", attrStep("rule"), intStep(int64(i)), attrStep("port")))
			}
		}
	}
	if tags := cfg.GetAttr("tags"); tags.IsKnown() && !tags.IsNull() && tags.Type().IsMapType() {
		if tags.HasIndex(cty.StringVal("bad")).True() {
			ds = append(ds, errDiag("Invalid tag", "", attrStep("tags"), keyStep("bad")))
		}
	}
	return &tfplugin6.ValidateResourceConfig_Response{Diagnostics: ds}, nil
}

func (s *server) ValidateDataResourceConfig(_ context.Context, req *tfplugin6.ValidateDataResourceConfig_Request) (*tfplugin6.ValidateDataResourceConfig_Response, error) {
	ty := echoType
	switch req.TypeName {
	case "test_secret":
		ty = secretDataType
	case "test_probe":
		ty = probeType
	}
	cfg, err := decode(req.Config, ty)
	if err != nil {
		return &tfplugin6.ValidateDataResourceConfig_Response{Diagnostics: decodeFailed(err)}, nil
	}
	if req.TypeName == "test_echo" {
		if in := cfg.GetAttr("input"); in.IsKnown() && !in.IsNull() && in.AsString() == "invalid" {
			return &tfplugin6.ValidateDataResourceConfig_Response{Diagnostics: []*tfplugin6.Diagnostic{
				errDiag("Invalid input", `The input "invalid" is refused.`, attrStep("input"))}}, nil
		}
	}
	return &tfplugin6.ValidateDataResourceConfig_Response{}, nil
}

func (s *server) UpgradeResourceState(_ context.Context, req *tfplugin6.UpgradeResourceState_Request) (*tfplugin6.UpgradeResourceState_Response, error) {
	ty, ok := typeOf(req.TypeName)
	if !ok {
		return &tfplugin6.UpgradeResourceState_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Unknown type", req.TypeName)}}, nil
	}
	raw := req.GetRawState()
	if len(raw.GetJson()) == 0 && len(raw.GetFlatmap()) > 0 {
		vals := map[string]cty.Value{}
		for name, aty := range ty.AttributeTypes() {
			vals[name] = cty.NullVal(aty)
		}
		for k, v := range raw.GetFlatmap() {
			if aty, ok := ty.AttributeTypes()[k]; ok && aty == cty.String {
				vals[k] = cty.StringVal(v)
			}
		}
		return &tfplugin6.UpgradeResourceState_Response{UpgradedState: encode(cty.ObjectVal(vals), ty)}, nil
	}
	js := raw.GetJson()
	if req.TypeName == "test_thing" && req.Version == 0 {
		// Version 0 called "name" "label".
		js = []byte(strings.Replace(string(js), `"label"`, `"name"`, 1))
	} else if req.TypeName == "test_thing" && req.Version > thingVersion {
		return &tfplugin6.UpgradeResourceState_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Unsupported schema version", fmt.Sprint(req.Version))}}, nil
	}
	v, err := ctyjson.Unmarshal(js, ty)
	if err != nil {
		return &tfplugin6.UpgradeResourceState_Response{Diagnostics: decodeFailed(err)}, nil
	}
	// Answer in JSON, which clients must accept too.
	out, err := ctyjson.Marshal(v, ty)
	if err != nil {
		return nil, err
	}
	return &tfplugin6.UpgradeResourceState_Response{UpgradedState: &tfplugin6.DynamicValue{Json: out}}, nil
}

func (s *server) ReadResource(_ context.Context, req *tfplugin6.ReadResource_Request) (*tfplugin6.ReadResource_Response, error) {
	ty, ok := typeOf(req.TypeName)
	if !ok {
		return &tfplugin6.ReadResource_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Unknown type", req.TypeName)}}, nil
	}
	cur, err := decode(req.CurrentState, ty)
	if err != nil {
		return &tfplugin6.ReadResource_Response{Diagnostics: decodeFailed(err)}, nil
	}
	if req.TypeName == "test_service" && !cur.IsNull() {
		if cur, err = readService(cur); err != nil {
			return &tfplugin6.ReadResource_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Read failed", err.Error())}}, nil
		}
	} else if req.TypeName == "test_file" && !cur.IsNull() {
		if cur, err = readFile(cur.GetAttr("id"), cur.GetAttr("key")); err != nil {
			return &tfplugin6.ReadResource_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Read failed", err.Error())}}, nil
		}
	} else if !cur.IsNull() {
		if id := cur.GetAttr("id"); id.IsKnown() && !id.IsNull() && id.AsString() == "gone" {
			cur = cty.NullVal(ty)
		}
	}
	resp := &tfplugin6.ReadResource_Response{NewState: encode(cur, ty), Private: req.Private}
	if req.TypeName == "test_file" {
		resp.NewIdentity = fileIdentity(cur)
	}
	return resp, nil
}

func (s *server) PlanResourceChange(_ context.Context, req *tfplugin6.PlanResourceChange_Request) (*tfplugin6.PlanResourceChange_Response, error) {
	ty, ok := typeOf(req.TypeName)
	if !ok {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Unknown type", req.TypeName)}}, nil
	}
	if meta, err := decode(req.ProviderMeta, metaType); err != nil {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Bad provider_meta", err.Error())}}, nil
	} else if !meta.IsNull() && meta.GetAttr("module_name").RawEquals(cty.StringVal("reject-me")) {
		// Lets tests see that a module's provider_meta arrives.
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Bad provider_meta", "module_name is reject-me")}}, nil
	}
	prior, err := decode(req.PriorState, ty)
	if err != nil {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: decodeFailed(err)}, nil
	}
	proposed, err := decode(req.ProposedNewState, ty)
	if err != nil {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: decodeFailed(err)}, nil
	}
	if proposed.IsNull() {
		return &tfplugin6.PlanResourceChange_Response{PlannedState: req.ProposedNewState, PlannedPrivate: req.PriorPrivate}, nil
	}
	m := proposed.AsValueMap()
	resp := &tfplugin6.PlanResourceChange_Response{}
	if prior.IsNull() {
		m["id"] = cty.UnknownVal(cty.String).RefineNotNull()
	}
	if req.TypeName == "test_file" {
		config, err := decode(req.Config, ty)
		if err != nil {
			return &tfplugin6.PlanResourceChange_Response{Diagnostics: decodeFailed(err)}, nil
		}
		planFile(prior, config, m, resp)
	}
	if req.TypeName == "test_secret" {
		planSecret(prior, m)
	}
	if req.TypeName == "test_service" {
		resp.RequiresReplace = planService(prior, m)
	}
	if req.TypeName == "test_thing" {
		if m["size"].IsNull() {
			m["size"] = cty.NumberIntVal(1)
		}
		switch {
		case prior.IsNull():
			m["created"] = cty.UnknownVal(cty.String)
		case !prior.GetAttr("name").RawEquals(proposed.GetAttr("name")):
			resp.RequiresReplace = []*tfplugin6.AttributePath{{Steps: []*tfplugin6.AttributePath_Step{attrStep("name")}}}
			m["id"] = cty.UnknownVal(cty.String).RefineNotNull()
			m["created"] = cty.UnknownVal(cty.String)
		}
		if name := m["name"]; name.IsKnown() && !name.IsNull() {
			resp.PlannedPrivate = []byte("planned:" + name.AsString())
		}
	}
	resp.PlannedState = encode(cty.ObjectVal(m), ty)
	if req.TypeName == "test_file" && !prior.IsNull() && m["id"].IsKnown() && len(resp.RequiresReplace) == 0 {
		// Kept on an update; on a create, known only when the
		// configuration names the file (planFile): the tools refuse
		// unknown identities in their saved plans.
		resp.PlannedIdentity = req.PriorIdentity
	}
	return resp, nil
}

func (s *server) ApplyResourceChange(ctx context.Context, req *tfplugin6.ApplyResourceChange_Request) (*tfplugin6.ApplyResourceChange_Response, error) {
	logApply(req)
	ty, ok := typeOf(req.TypeName)
	if !ok {
		return &tfplugin6.ApplyResourceChange_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Unknown type", req.TypeName)}}, nil
	}
	planned, err := decode(req.PlannedState, ty)
	if err != nil {
		return &tfplugin6.ApplyResourceChange_Response{Diagnostics: decodeFailed(err)}, nil
	}
	if req.TypeName == "test_service" {
		prior, err := decode(req.PriorState, ty)
		if err != nil {
			return &tfplugin6.ApplyResourceChange_Response{Diagnostics: decodeFailed(err)}, nil
		}
		v, err := applyService(prior, planned)
		if err != nil {
			return &tfplugin6.ApplyResourceChange_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Apply failed", err.Error())}}, nil
		}
		return &tfplugin6.ApplyResourceChange_Response{NewState: encode(v, ty)}, nil
	}
	if req.TypeName == "test_file" {
		prior, err := decode(req.PriorState, ty)
		if err != nil {
			return &tfplugin6.ApplyResourceChange_Response{Diagnostics: decodeFailed(err)}, nil
		}
		v, err := applyFile(prior, planned)
		if err != nil {
			return &tfplugin6.ApplyResourceChange_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Apply failed", err.Error())}}, nil
		}
		return &tfplugin6.ApplyResourceChange_Response{NewState: encode(v, ty), NewIdentity: fileIdentity(v)}, nil
	}
	if planned.IsNull() {
		return &tfplugin6.ApplyResourceChange_Response{NewState: req.PlannedState}, nil
	}
	m := planned.AsValueMap()
	if req.TypeName == "test_secret" {
		applySecret(m)
		return &tfplugin6.ApplyResourceChange_Response{NewState: encode(cty.ObjectVal(m), ty), Private: req.PlannedPrivate}, nil
	}
	name := "nested"
	if req.TypeName == "test_thing" {
		name = m["name"].AsString()
	}
	if name == "slow" {
		select {
		case <-s.stopped:
			return &tfplugin6.ApplyResourceChange_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Interrupted", "The provider was stopped.")}}, nil
		case <-time.After(10 * time.Second):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if !m["id"].IsKnown() {
		m["id"] = cty.StringVal("id-" + name)
	}
	if c, ok := m["created"]; ok && !c.IsKnown() {
		m["created"] = cty.StringVal("2024-01-02T03:04:05Z")
	}
	resp := &tfplugin6.ApplyResourceChange_Response{NewState: encode(cty.ObjectVal(m), ty), Private: req.PlannedPrivate}
	if name == "fail-apply" {
		resp.Diagnostics = []*tfplugin6.Diagnostic{errDiag("Apply failed", "The thing was created but could not be tagged.")}
	}
	return resp, nil
}

func (s *server) ImportResourceState(_ context.Context, req *tfplugin6.ImportResourceState_Request) (*tfplugin6.ImportResourceState_Response, error) {
	if req.TypeName == "test_file" {
		return importFile(req), nil
	}
	if req.TypeName != "test_thing" {
		return &tfplugin6.ImportResourceState_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Import not supported", req.TypeName)}}, nil
	}
	vals := map[string]cty.Value{}
	for name, aty := range thingType.AttributeTypes() {
		vals[name] = cty.NullVal(aty)
	}
	vals["id"] = cty.StringVal(req.Id)
	vals["name"] = cty.StringVal(req.Id)
	return &tfplugin6.ImportResourceState_Response{ImportedResources: []*tfplugin6.ImportResourceState_ImportedResource{{
		TypeName: "test_thing", State: encode(cty.ObjectVal(vals), thingType), Private: []byte("imported"),
	}}}, nil
}

func (s *server) ReadDataSource(_ context.Context, req *tfplugin6.ReadDataSource_Request) (*tfplugin6.ReadDataSource_Response, error) {
	if req.TypeName == "test_secret" {
		cfg, err := decode(req.Config, secretDataType)
		if err != nil {
			return &tfplugin6.ReadDataSource_Response{Diagnostics: decodeFailed(err)}, nil
		}
		return &tfplugin6.ReadDataSource_Response{State: encode(readSecretData(cfg), secretDataType)}, nil
	}
	if req.TypeName == "test_probe" {
		return readProbe(req), nil
	}
	if req.TypeName != "test_echo" {
		return &tfplugin6.ReadDataSource_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Unknown data source", req.TypeName)}}, nil
	}
	cfg, err := decode(req.Config, echoType)
	if err != nil {
		return &tfplugin6.ReadDataSource_Response{Diagnostics: decodeFailed(err)}, nil
	}
	in := cfg.GetAttr("input")
	if in.IsKnown() && !in.IsNull() {
		switch in.AsString() {
		case "crash":
			os.Exit(3)
		case "panic":
			// A provider bug: the process ends with a Go panic on stderr.
			panic("test provider: asked to panic while reading test_echo")
		case "garbage":
			return &tfplugin6.ReadDataSource_Response{State: &tfplugin6.DynamicValue{Msgpack: []byte{0x93, 0xff}}}, nil
		case "region":
			s.mu.Lock()
			in = cty.StringVal(s.region)
			s.mu.Unlock()
		}
	}
	return &tfplugin6.ReadDataSource_Response{State: encode(cty.ObjectVal(map[string]cty.Value{"input": cfg.GetAttr("input"), "output": in}), echoType)}, nil
}

func (s *server) CallFunction(_ context.Context, req *tfplugin6.CallFunction_Request) (*tfplugin6.CallFunction_Response, error) {
	if req.Name != "upper" || len(req.Arguments) != 1 {
		return &tfplugin6.CallFunction_Response{Error: &tfplugin6.FunctionError{Text: "no such function or wrong arity"}}, nil
	}
	arg, err := decode(req.Arguments[0], cty.String)
	if err != nil {
		return &tfplugin6.CallFunction_Response{Error: &tfplugin6.FunctionError{Text: err.Error()}}, nil
	}
	if arg.IsNull() || arg.AsString() == "" {
		zero := int64(0)
		return &tfplugin6.CallFunction_Response{Error: &tfplugin6.FunctionError{Text: "empty string", FunctionArgument: &zero}}, nil
	}
	return &tfplugin6.CallFunction_Response{Result: encode(cty.StringVal(strings.ToUpper(arg.AsString())), cty.String)}, nil
}

func (s *server) StopProvider(context.Context, *tfplugin6.StopProvider_Request) (*tfplugin6.StopProvider_Response, error) {
	s.stopOnce.Do(func() { close(s.stopped) })
	return &tfplugin6.StopProvider_Response{}, nil
}
