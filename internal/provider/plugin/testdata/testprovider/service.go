package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
)

// test_service is a resource whose objects become ready after a number of
// reads, for the tests of health gates. Each object is a file in dir,
// named by its id (NAME-VERSION, or NAME-VERSION.N when an object of that
// name and version exists already), holding how many times it was read; an
// object is ready once it was read ready_after times (at once when
// ready_after is null or 0). Every create, read and delete appends a line
// "create|read|delete ID" to dir/log, so a test sees what ran in order.
// An object whose file ID.nodelete exists in dir cannot be deleted.
// Changing name or version forces a replacement.
var serviceType = cty.Object(map[string]cty.Type{
	"id": cty.String, "dir": cty.String, "name": cty.String, "version": cty.String,
	"ready_after": cty.Number, "ready": cty.Bool,
})

func serviceSchema() *tfplugin6.Schema {
	return &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{
		Description: "A service that becomes ready after ready_after reads.",
		Attributes: []*tfplugin6.Schema_Attribute{
			attr("id", cty.String, "c"),
			attr("dir", cty.String, "r"),
			attr("name", cty.String, "r"),
			attr("version", cty.String, "o"),
			attr("ready_after", cty.Number, "o"),
			attr("ready", cty.Bool, "c"),
		},
	}}
}

// serviceLog appends one line to dir/log.
func serviceLog(dir, line string) error {
	f, err := os.OpenFile(filepath.Join(dir, "log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// serviceReady reports whether an object read n times is ready.
func serviceReady(v cty.Value, n int) cty.Value {
	after := v.GetAttr("ready_after")
	if after.IsNull() || !after.IsKnown() {
		return cty.True
	}
	bf := after.AsBigFloat()
	want, _ := bf.Int64()
	return cty.BoolVal(int64(n) >= want)
}

// planService plans a test_service change into m (the proposed object).
func planService(prior cty.Value, m map[string]cty.Value) []*tfplugin6.AttributePath {
	if prior.IsNull() {
		m["id"] = cty.UnknownVal(cty.String).RefineNotNull()
		m["ready"] = cty.UnknownVal(cty.Bool)
		return nil
	}
	var replace []*tfplugin6.AttributePath
	for _, name := range []string{"name", "version", "dir"} {
		if !prior.GetAttr(name).RawEquals(m[name]) {
			replace = append(replace, &tfplugin6.AttributePath{Steps: []*tfplugin6.AttributePath_Step{attrStep(name)}})
		}
	}
	if len(replace) > 0 {
		m["id"] = cty.UnknownVal(cty.String).RefineNotNull()
		m["ready"] = cty.UnknownVal(cty.Bool)
	}
	return replace
}

// applyService creates (prior null) or deletes (planned null) a
// test_service object, or updates its ready_after.
func applyService(prior, planned cty.Value) (cty.Value, error) {
	if planned.IsNull() {
		dir, id := prior.GetAttr("dir").AsString(), prior.GetAttr("id").AsString()
		if _, err := os.Stat(filepath.Join(dir, id+".nodelete")); err == nil {
			return cty.NilVal, fmt.Errorf("%s cannot be deleted (%s.nodelete exists)", id, id)
		}
		if err := os.Remove(filepath.Join(dir, id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return cty.NilVal, err
		}
		return planned, serviceLog(dir, "delete "+id)
	}
	m := planned.AsValueMap()
	dir := m["dir"].AsString()
	if prior.IsNull() || !m["id"].IsKnown() {
		version := ""
		if v := m["version"]; !v.IsNull() {
			version = v.AsString()
		}
		id, err := newServiceID(dir, m["name"].AsString()+"-"+version)
		if err != nil {
			return cty.NilVal, err
		}
		m["id"] = cty.StringVal(id)
		m["ready"] = serviceReady(planned, 0)
		return cty.ObjectVal(m), serviceLog(dir, "create "+id)
	}
	m["ready"] = prior.GetAttr("ready")
	return cty.ObjectVal(m), nil
}

// readService counts one more read of a test_service object and returns
// it with its readiness; null when its file is gone.
func readService(cur cty.Value) (cty.Value, error) {
	dir, id := cur.GetAttr("dir").AsString(), cur.GetAttr("id").AsString()
	path := filepath.Join(dir, id)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cty.NullVal(serviceType), nil
	}
	if err != nil {
		return cty.NilVal, err
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	n++
	if err := os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644); err != nil {
		return cty.NilVal, err
	}
	m := cur.AsValueMap()
	m["ready"] = serviceReady(cur, n)
	return cty.ObjectVal(m), serviceLog(dir, "read "+id)
}

// newServiceID makes the file of a new test_service object and returns
// its id: base, or base.N (N from 2) while an object has the one before.
func newServiceID(dir, base string) (string, error) {
	id := base
	for n := 2; ; n++ {
		f, err := os.OpenFile(filepath.Join(dir, id), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, err = f.WriteString("0")
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return id, err
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
		id = base + "." + strconv.Itoa(n)
	}
}
