package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"google.golang.org/grpc"
)

// test_file has a resource identity, {id}, at version 1 (version 0 called
// the attribute file_id), and a list resource type of the same name that
// finds files by identity (config.id) or by attributes (config.content, or
// config.content_prefix): the list a recovery or a query searches. A file
// whose content is "new-identity" reports another identity than the one
// it was created with, as a provider bug would.
var (
	fileIdentityType   = cty.Object(map[string]cty.Type{"id": cty.String})
	fileIdentityV      = int64(1)
	fileListConfigType = cty.Object(map[string]cty.Type{"id": cty.String, "content": cty.String, "content_prefix": cty.String})
)

func fileListSchema() *tfplugin6.Schema {
	return &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{
		Description: "Finds test_file objects by id, content or content prefix (all when none is set).",
		Attributes: []*tfplugin6.Schema_Attribute{
			attr("id", cty.String, "o"),
			attr("content", cty.String, "o"),
			attr("content_prefix", cty.String, "o"),
		},
	}}
}

// fileIdentity is the identity of a test_file object v (its id, unknown
// until created); nil for a null object.
func fileIdentity(v cty.Value) *tfplugin6.ResourceIdentityData {
	if v.IsNull() {
		return nil
	}
	id := v.GetAttr("id")
	if id.IsKnown() && !id.IsNull() && v.GetAttr("content").RawEquals(cty.StringVal("new-identity")) {
		id = cty.StringVal(id.AsString() + "-renamed")
	}
	return &tfplugin6.ResourceIdentityData{IdentityData: encode(cty.ObjectVal(map[string]cty.Value{"id": id}), fileIdentityType)}
}

func (s *server) GetResourceIdentitySchemas(context.Context, *tfplugin6.GetResourceIdentitySchemas_Request) (*tfplugin6.GetResourceIdentitySchemas_Response, error) {
	return &tfplugin6.GetResourceIdentitySchemas_Response{IdentitySchemas: map[string]*tfplugin6.ResourceIdentitySchema{
		"test_file": {Version: fileIdentityV, IdentityAttributes: []*tfplugin6.ResourceIdentitySchema_IdentityAttribute{
			{Name: "id", Type: typeJSON(cty.String), RequiredForImport: true, Description: "The file's name in the world directory."},
		}},
	}}, nil
}

func (s *server) UpgradeResourceIdentity(_ context.Context, req *tfplugin6.UpgradeResourceIdentity_Request) (*tfplugin6.UpgradeResourceIdentity_Response, error) {
	if req.TypeName != "test_file" {
		return &tfplugin6.UpgradeResourceIdentity_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("No identity", req.TypeName)}}, nil
	}
	js := req.GetRawIdentity().GetJson()
	switch req.Version {
	case 0:
		js = []byte(strings.Replace(string(js), `"file_id"`, `"id"`, 1))
	case fileIdentityV:
	default:
		return &tfplugin6.UpgradeResourceIdentity_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Unsupported identity version", fmt.Sprint(req.Version))}}, nil
	}
	v, err := ctyjson.Unmarshal(js, fileIdentityType)
	if err != nil {
		return &tfplugin6.UpgradeResourceIdentity_Response{Diagnostics: decodeFailed(err)}, nil
	}
	return &tfplugin6.UpgradeResourceIdentity_Response{UpgradedIdentity: &tfplugin6.ResourceIdentityData{IdentityData: encode(v, fileIdentityType)}}, nil
}

// importFile imports the test_file object with the given id, named by an
// import ID or an identity.
func importFile(req *tfplugin6.ImportResourceState_Request) *tfplugin6.ImportResourceState_Response {
	id := req.Id
	if req.Identity != nil {
		v, err := decode(req.Identity.IdentityData, fileIdentityType)
		if err != nil {
			return &tfplugin6.ImportResourceState_Response{Diagnostics: decodeFailed(err)}
		}
		if v.IsNull() || v.GetAttr("id").IsNull() {
			return &tfplugin6.ImportResourceState_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Invalid identity", "The identity of a test_file needs its id.")}}
		}
		id = v.GetAttr("id").AsString()
	}
	obj, err := readFile(cty.StringVal(id), cty.NullVal(cty.String))
	if err != nil {
		return &tfplugin6.ImportResourceState_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Import failed", err.Error())}}
	}
	if obj.IsNull() {
		return &tfplugin6.ImportResourceState_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Cannot import non-existent remote object", "There is no test_file "+id+".")}}
	}
	return &tfplugin6.ImportResourceState_Response{ImportedResources: []*tfplugin6.ImportResourceState_ImportedResource{{
		TypeName: "test_file", State: encode(obj, fileType), Identity: fileIdentity(obj),
	}}}
}

// listFiles returns the events of a ListResource call: one per matching
// file, in name order, at most req.Limit of them.
func listFiles(req *tfplugin6.ListResource_Request) []*tfplugin6.ListResource_Event {
	fail := func(summary, detail string) []*tfplugin6.ListResource_Event {
		return []*tfplugin6.ListResource_Event{{Diagnostic: []*tfplugin6.Diagnostic{errDiag(summary, detail)}}}
	}
	if req.TypeName != "test_file" {
		return fail("Unknown list resource type", req.TypeName)
	}
	cfg, err := decode(req.Config, fileListConfigType)
	if err != nil {
		return []*tfplugin6.ListResource_Event{{Diagnostic: decodeFailed(err)}}
	}
	want := func(name string) string {
		if cfg.IsNull() {
			return ""
		}
		if v := cfg.GetAttr(name); v.IsKnown() && !v.IsNull() {
			return v.AsString()
		}
		return ""
	}
	dir, err := worldDir()
	if err != nil {
		return fail("List failed", err.Error())
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail("List failed", err.Error())
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	var out []*tfplugin6.ListResource_Event
	for _, name := range names {
		if req.Limit > 0 && int64(len(out)) >= req.Limit {
			break
		}
		if id := want("id"); id != "" && id != name {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue // deleted meanwhile
		}
		content := string(b)
		if c := want("content"); c != "" && c != content {
			continue
		}
		if p := want("content_prefix"); p != "" && !strings.HasPrefix(content, p) {
			continue
		}
		obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(name), "key": cty.NullVal(cty.String), "content": cty.StringVal(content)})
		ev := &tfplugin6.ListResource_Event{Identity: fileIdentity(obj), DisplayName: "file " + name}
		if req.IncludeResourceObject {
			ev.ResourceObject = encode(obj, fileType)
		}
		out = append(out, ev)
	}
	return out
}

func (s *server) ListResource(req *tfplugin6.ListResource_Request, stream grpc.ServerStreamingServer[tfplugin6.ListResource_Event]) error {
	for _, ev := range listFiles(req) {
		if err := stream.Send(ev); err != nil {
			return err
		}
	}
	return nil
}

// ValidateListResourceConfig refuses a test_file list config that names
// an id together with a content filter.
func (s *server) ValidateListResourceConfig(_ context.Context, req *tfplugin6.ValidateListResourceConfig_Request) (*tfplugin6.ValidateListResourceConfig_Response, error) {
	cfg, err := decode(req.Config, fileListConfigType)
	if err != nil {
		return &tfplugin6.ValidateListResourceConfig_Response{Diagnostics: decodeFailed(err)}, nil
	}
	set := func(name string) bool { return !cfg.IsNull() && !cfg.GetAttr(name).IsNull() }
	if set("id") {
		for _, name := range []string{"content", "content_prefix"} {
			if set(name) {
				return &tfplugin6.ValidateListResourceConfig_Response{Diagnostics: []*tfplugin6.Diagnostic{
					errDiag("Conflicting filters", "A test_file list finds one file by id, or files by content: not both.", attrStep(name))}}, nil
			}
		}
	}
	return &tfplugin6.ValidateListResourceConfig_Response{}, nil
}

func (s *server5) ValidateListResourceConfig(ctx context.Context, in *tfplugin5.ValidateListResourceConfig_Request) (*tfplugin5.ValidateListResourceConfig_Response, error) {
	return relay(ctx, in, new(tfplugin6.ValidateListResourceConfig_Request), new(tfplugin5.ValidateListResourceConfig_Response), s.v6.ValidateListResourceConfig)
}

func (s *server5) GetResourceIdentitySchemas(ctx context.Context, in *tfplugin5.GetResourceIdentitySchemas_Request) (*tfplugin5.GetResourceIdentitySchemas_Response, error) {
	return relay(ctx, in, new(tfplugin6.GetResourceIdentitySchemas_Request), new(tfplugin5.GetResourceIdentitySchemas_Response), s.v6.GetResourceIdentitySchemas)
}

func (s *server5) UpgradeResourceIdentity(ctx context.Context, in *tfplugin5.UpgradeResourceIdentity_Request) (*tfplugin5.UpgradeResourceIdentity_Response, error) {
	return relay(ctx, in, new(tfplugin6.UpgradeResourceIdentity_Request), new(tfplugin5.UpgradeResourceIdentity_Response), s.v6.UpgradeResourceIdentity)
}

func (s *server5) ListResource(in *tfplugin5.ListResource_Request, stream grpc.ServerStreamingServer[tfplugin5.ListResource_Event]) error {
	req6, err := relay(stream.Context(), in, new(tfplugin6.ListResource_Request), new(tfplugin6.ListResource_Request),
		func(_ context.Context, r *tfplugin6.ListResource_Request) (*tfplugin6.ListResource_Request, error) {
			return r, nil
		})
	if err != nil {
		return err
	}
	for _, ev := range listFiles(req6) {
		ev5, err := relay(stream.Context(), ev, new(tfplugin6.ListResource_Event), new(tfplugin5.ListResource_Event),
			func(_ context.Context, e *tfplugin6.ListResource_Event) (*tfplugin6.ListResource_Event, error) {
				return e, nil
			})
		if err != nil {
			return err
		}
		if err := stream.Send(ev5); err != nil {
			return err
		}
	}
	return nil
}
