package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
)

// test_probe is a data source whose answer flips after a number of reads,
// as an HTTP health check's does once a service is up: ready is false
// until it was read ready_after times (counting this read), true after.
// Each read counts in the file dir/probe-NAME and appends "probe NAME" to
// dir/log, beside test_service's lines.
var probeType = cty.Object(map[string]cty.Type{"dir": cty.String, "name": cty.String, "ready_after": cty.Number, "ready": cty.Bool, "reads": cty.Number})

func probeSchema() *tfplugin6.Schema {
	return &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{
		Description: "A health check that answers ready after ready_after reads.",
		Attributes: []*tfplugin6.Schema_Attribute{
			attr("dir", cty.String, "r"),
			attr("name", cty.String, "r"),
			attr("ready_after", cty.Number, "r"),
			attr("ready", cty.Bool, "c"),
			attr("reads", cty.Number, "c"),
		},
	}}
}

// readProbe counts one more read of the probe cfg names and answers.
func readProbe(req *tfplugin6.ReadDataSource_Request) *tfplugin6.ReadDataSource_Response {
	cfg, err := decode(req.Config, probeType)
	if err != nil {
		return &tfplugin6.ReadDataSource_Response{Diagnostics: decodeFailed(err)}
	}
	dir, name := cfg.GetAttr("dir").AsString(), cfg.GetAttr("name").AsString()
	path := filepath.Join(dir, "probe-"+name)
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &tfplugin6.ReadDataSource_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Read failed", err.Error())}}
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	n++
	if err := os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644); err != nil {
		return &tfplugin6.ReadDataSource_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Read failed", err.Error())}}
	}
	if err := serviceLog(dir, "probe "+name); err != nil {
		return &tfplugin6.ReadDataSource_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Read failed", err.Error())}}
	}
	after, _ := cfg.GetAttr("ready_after").AsBigFloat().Int64()
	m := cfg.AsValueMap()
	m["ready"] = cty.BoolVal(int64(n) >= after)
	m["reads"] = cty.NumberIntVal(int64(n))
	return &tfplugin6.ReadDataSource_Response{State: encode(cty.ObjectVal(m), probeType)}
}
