package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
)

var (
	resourceType = cty.Object(map[string]cty.Type{"id": cty.String, "value": cty.String, "interrupt_count": cty.Number})
	configType   = cty.Object(map[string]cty.Type{
		"data_prefix": cty.String, "resource_prefix": cty.String, "username": cty.String, "password": cty.String,
		"block_single": cty.Object(map[string]cty.Type{"string_attr": cty.String}),
	})
)

// server is one provider process: its configuration's prefixes, and the
// store directory shared by every process.
type server struct {
	tfplugin6.UnimplementedProviderServer

	mu             sync.Mutex
	dataPrefix     string
	resourcePrefix string
}

func typeJSON(ty cty.Type) []byte {
	b, err := ctyjson.MarshalType(ty)
	if err != nil {
		panic(err)
	}
	return b
}

func attr(name string, ty cty.Type, required, optional, computed bool) *tfplugin6.Schema_Attribute {
	return &tfplugin6.Schema_Attribute{Name: name, Type: typeJSON(ty), Required: required, Optional: optional, Computed: computed}
}

func (s *server) GetProviderSchema(context.Context, *tfplugin6.GetProviderSchema_Request) (*tfplugin6.GetProviderSchema_Response, error) {
	return &tfplugin6.GetProviderSchema_Response{
		Provider: &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{
			Attributes: []*tfplugin6.Schema_Attribute{
				attr("data_prefix", cty.String, false, true, false),
				attr("resource_prefix", cty.String, false, true, false),
				attr("username", cty.String, false, true, false),
				attr("password", cty.String, false, true, false),
			},
			BlockTypes: []*tfplugin6.Schema_NestedBlock{{TypeName: "block_single", Nesting: tfplugin6.Schema_NestedBlock_SINGLE,
				Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{attr("string_attr", cty.String, false, true, false)}}}},
		}},
		ResourceSchemas: map[string]*tfplugin6.Schema{"test_resource": {Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{
			attr("id", cty.String, false, true, true),
			attr("value", cty.String, false, true, false),
			attr("interrupt_count", cty.Number, false, true, false),
		}}}},
		DataSourceSchemas: map[string]*tfplugin6.Schema{"test_data_source": {Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{
			attr("id", cty.String, true, false, false),
			attr("value", cty.String, false, false, true),
			attr("interrupt_count", cty.Number, false, false, true),
		}}}},
		ServerCapabilities: &tfplugin6.ServerCapabilities{},
	}, nil
}

func decode(dv *tfplugin6.DynamicValue, ty cty.Type) (cty.Value, error) {
	switch {
	case dv == nil:
		return cty.NullVal(ty), nil
	case len(dv.GetMsgpack()) > 0:
		return msgpack.Unmarshal(dv.GetMsgpack(), ty)
	case len(dv.GetJson()) > 0:
		return ctyjson.Unmarshal(dv.GetJson(), ty)
	}
	return cty.NullVal(ty), nil
}

func encode(v cty.Value, ty cty.Type) *tfplugin6.DynamicValue {
	b, err := msgpack.Marshal(v, ty)
	if err != nil {
		panic(err)
	}
	return &tfplugin6.DynamicValue{Msgpack: b}
}

func errDiag(summary, detail string) []*tfplugin6.Diagnostic {
	return []*tfplugin6.Diagnostic{{Severity: tfplugin6.Diagnostic_ERROR, Summary: summary, Detail: detail}}
}

// storeDir is where objects are kept.
func storeDir() string {
	if d := os.Getenv("RIG_FIXTURE_STORE"); d != "" {
		return d
	}
	return ".fixture-store"
}

func storePath(key string) string {
	return filepath.Join(storeDir(), url.PathEscape(key)+".json")
}

func storePut(key string, v cty.Value) error {
	if err := os.MkdirAll(storeDir(), 0o755); err != nil {
		return err
	}
	b, err := ctyjson.Marshal(v, resourceType)
	if err != nil {
		return err
	}
	return os.WriteFile(storePath(key), b, 0o644)
}

// storeGet returns the object stored under key, or a null value.
func storeGet(key string) (cty.Value, error) {
	b, err := os.ReadFile(storePath(key))
	if os.IsNotExist(err) {
		return cty.NullVal(resourceType), nil
	}
	if err != nil {
		return cty.NilVal, err
	}
	return ctyjson.Unmarshal(b, resourceType)
}

func storeDelete(key string) error {
	err := os.Remove(storePath(key))
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

func joinKey(prefix, id string) string {
	if prefix == "" {
		return id
	}
	return path.Join(prefix, id)
}

func stringOr(v cty.Value) string {
	if v.IsNull() || !v.IsKnown() {
		return ""
	}
	return v.AsString()
}

func (s *server) ValidateProviderConfig(_ context.Context, req *tfplugin6.ValidateProviderConfig_Request) (*tfplugin6.ValidateProviderConfig_Response, error) {
	return &tfplugin6.ValidateProviderConfig_Response{}, nil
}

func (s *server) ConfigureProvider(_ context.Context, req *tfplugin6.ConfigureProvider_Request) (*tfplugin6.ConfigureProvider_Response, error) {
	cfg, err := decode(req.Config, configType)
	if err != nil {
		return &tfplugin6.ConfigureProvider_Response{Diagnostics: errDiag("Undecodable configuration", err.Error())}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !cfg.IsNull() {
		s.dataPrefix = stringOr(cfg.GetAttr("data_prefix"))
		s.resourcePrefix = stringOr(cfg.GetAttr("resource_prefix"))
	}
	return &tfplugin6.ConfigureProvider_Response{}, nil
}

func (s *server) prefixes() (data, resource string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dataPrefix, s.resourcePrefix
}

func (s *server) ValidateResourceConfig(context.Context, *tfplugin6.ValidateResourceConfig_Request) (*tfplugin6.ValidateResourceConfig_Response, error) {
	return &tfplugin6.ValidateResourceConfig_Response{}, nil
}

func (s *server) ValidateDataResourceConfig(context.Context, *tfplugin6.ValidateDataResourceConfig_Request) (*tfplugin6.ValidateDataResourceConfig_Response, error) {
	return &tfplugin6.ValidateDataResourceConfig_Response{}, nil
}

func (s *server) UpgradeResourceState(_ context.Context, req *tfplugin6.UpgradeResourceState_Request) (*tfplugin6.UpgradeResourceState_Response, error) {
	v, err := ctyjson.Unmarshal(req.RawState.GetJson(), resourceType)
	if err != nil {
		return &tfplugin6.UpgradeResourceState_Response{Diagnostics: errDiag("Undecodable state", err.Error())}, nil
	}
	return &tfplugin6.UpgradeResourceState_Response{UpgradedState: encode(v, resourceType)}, nil
}

func (s *server) ReadResource(_ context.Context, req *tfplugin6.ReadResource_Request) (*tfplugin6.ReadResource_Response, error) {
	prior, err := decode(req.CurrentState, resourceType)
	if err != nil {
		return &tfplugin6.ReadResource_Response{Diagnostics: errDiag("Undecodable state", err.Error())}, nil
	}
	id := stringOr(prior.GetAttr("id"))
	_, prefix := s.prefixes()
	v, err := storeGet(joinKey(prefix, id))
	if err != nil {
		return &tfplugin6.ReadResource_Response{Diagnostics: errDiag("Store", err.Error())}, nil
	}
	resp := &tfplugin6.ReadResource_Response{NewState: encode(v, resourceType), Private: req.Private}
	if v.IsNull() {
		resp.Diagnostics = errDiag("not found", fmt.Sprintf("%s does not exist", id))
	}
	return resp, nil
}

func (s *server) PlanResourceChange(_ context.Context, req *tfplugin6.PlanResourceChange_Request) (*tfplugin6.PlanResourceChange_Response, error) {
	proposed, err := decode(req.ProposedNewState, resourceType)
	if err != nil {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: errDiag("Undecodable proposal", err.Error())}, nil
	}
	if proposed.IsNull() {
		return &tfplugin6.PlanResourceChange_Response{PlannedState: req.ProposedNewState}, nil
	}
	m := proposed.AsValueMap()
	if id := m["id"]; !id.IsKnown() || id.IsNull() {
		m["id"] = cty.UnknownVal(cty.String)
	}
	return &tfplugin6.PlanResourceChange_Response{PlannedState: encode(cty.ObjectVal(m), resourceType)}, nil
}

func (s *server) ApplyResourceChange(_ context.Context, req *tfplugin6.ApplyResourceChange_Request) (*tfplugin6.ApplyResourceChange_Response, error) {
	planned, err := decode(req.PlannedState, resourceType)
	if err != nil {
		return &tfplugin6.ApplyResourceChange_Response{Diagnostics: errDiag("Undecodable plan", err.Error())}, nil
	}
	_, prefix := s.prefixes()
	if planned.IsNull() {
		prior, err := decode(req.PriorState, resourceType)
		if err != nil {
			return &tfplugin6.ApplyResourceChange_Response{Diagnostics: errDiag("Undecodable state", err.Error())}, nil
		}
		if err := storeDelete(joinKey(prefix, stringOr(prior.GetAttr("id")))); err != nil {
			return &tfplugin6.ApplyResourceChange_Response{Diagnostics: errDiag("Store", err.Error())}, nil
		}
		return &tfplugin6.ApplyResourceChange_Response{NewState: req.PlannedState}, nil
	}
	m := planned.AsValueMap()
	if !m["id"].IsKnown() {
		m["id"] = cty.StringVal(newID())
	}
	obj := cty.ObjectVal(m)
	if n := m["interrupt_count"]; !n.IsNull() && n.IsKnown() {
		count, _ := n.AsBigFloat().Int64()
		for range count {
			// Signals of one kind that are pending together are delivered
			// once: the next waits until the first has surely arrived,
			// even on a loaded machine.
			_ = syscall.Kill(os.Getppid(), syscall.SIGINT)
			time.Sleep(500 * time.Millisecond)
		}
		time.Sleep(time.Second)
	}
	if err := storePut(joinKey(prefix, m["id"].AsString()), obj); err != nil {
		return &tfplugin6.ApplyResourceChange_Response{Diagnostics: errDiag("Store", err.Error())}, nil
	}
	return &tfplugin6.ApplyResourceChange_Response{NewState: encode(obj, resourceType)}, nil
}

func (s *server) ReadDataSource(_ context.Context, req *tfplugin6.ReadDataSource_Request) (*tfplugin6.ReadDataSource_Response, error) {
	cfg, err := decode(req.Config, resourceType)
	if err != nil {
		return &tfplugin6.ReadDataSource_Response{Diagnostics: errDiag("Undecodable configuration", err.Error())}, nil
	}
	id := stringOr(cfg.GetAttr("id"))
	prefix, _ := s.prefixes()
	v, err := storeGet(joinKey(prefix, id))
	if err != nil {
		return &tfplugin6.ReadDataSource_Response{Diagnostics: errDiag("Store", err.Error())}, nil
	}
	if v.IsNull() {
		return &tfplugin6.ReadDataSource_Response{Diagnostics: errDiag("not found", fmt.Sprintf("%s does not exist", id))}, nil
	}
	return &tfplugin6.ReadDataSource_Response{State: encode(v, resourceType)}, nil
}

func (s *server) StopProvider(context.Context, *tfplugin6.StopProvider_Request) (*tfplugin6.StopProvider_Response, error) {
	return &tfplugin6.StopProvider_Response{}, nil
}

// newID returns a random identifier in the form of a UUID.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
