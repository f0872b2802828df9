package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	mathrand "math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
)

// test_file is a resource whose objects live outside rig, so a test can list
// them: each object is a file in the directory RIG_TESTPROVIDER_WORLD names,
// called by its id (random hex the provider draws at create, unless the
// configuration names it: then the plan knows the object's identity) and
// holding its content. Changing key forces a replacement; changing content updates the
// file in place. RIG_TESTPROVIDER_DELAY_MS=N makes each create, update and
// delete wait up to N milliseconds (drawn at random) both before and after
// it touches the file, so a process killed meanwhile leaves the world part-way.
var fileType = cty.Object(map[string]cty.Type{"id": cty.String, "key": cty.String, "content": cty.String})

func fileSchema() *tfplugin6.Schema {
	return &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{
		Description: "A file in the directory RIG_TESTPROVIDER_WORLD names.",
		Attributes: []*tfplugin6.Schema_Attribute{
			attr("id", cty.String, "oc"),
			attr("key", cty.String, "o"),
			attr("content", cty.String, "r"),
		},
	}}
}

// worldDir returns the directory test_file objects live in.
func worldDir() (string, error) {
	dir := os.Getenv("RIG_TESTPROVIDER_WORLD")
	if dir == "" {
		return "", errors.New("RIG_TESTPROVIDER_WORLD is not set: test_file needs a directory to keep its objects in")
	}
	return dir, nil
}

// worldPause waits a random time up to RIG_TESTPROVIDER_DELAY_MS.
func worldPause() {
	ms, err := strconv.Atoi(os.Getenv("RIG_TESTPROVIDER_DELAY_MS"))
	if err != nil || ms <= 0 {
		return
	}
	time.Sleep(time.Duration(mathrand.Int64N(int64(ms) * int64(time.Millisecond))))
}

// readFile returns the object with the given id as it is in the world, or a
// null value when there is no such object.
func readFile(id, key cty.Value) (cty.Value, error) {
	dir, err := worldDir()
	if err != nil {
		return cty.NilVal, err
	}
	b, err := os.ReadFile(filepath.Join(dir, id.AsString()))
	if errors.Is(err, fs.ErrNotExist) {
		return cty.NullVal(fileType), nil
	}
	if err != nil {
		return cty.NilVal, fmt.Errorf("read test_file %s: %w", id.AsString(), err)
	}
	return cty.ObjectVal(map[string]cty.Value{"id": id, "key": key, "content": cty.StringVal(string(b))}), nil
}

// applyFile carries out a create (prior null), update or delete (planned
// null) in the world and returns the new object.
func applyFile(prior, planned cty.Value) (cty.Value, error) {
	dir, err := worldDir()
	if err != nil {
		return cty.NilVal, err
	}
	worldPause()
	defer worldPause()
	switch {
	case planned.IsNull():
		id := prior.GetAttr("id").AsString()
		if err := os.Remove(filepath.Join(dir, id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return cty.NilVal, fmt.Errorf("delete test_file %s: %w", id, err)
		}
		return planned, nil
	case prior.IsNull():
		id, err := newFileID(planned.GetAttr("id"))
		if err != nil {
			return cty.NilVal, err
		}
		path := filepath.Join(dir, id)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return cty.NilVal, fmt.Errorf("create test_file: %w", err)
		}
		_, err = f.WriteString(planned.GetAttr("content").AsString())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return cty.NilVal, fmt.Errorf("create test_file %s: %w", id, err)
		}
		m := planned.AsValueMap()
		m["id"] = cty.StringVal(id)
		return cty.ObjectVal(m), nil
	default:
		id := prior.GetAttr("id").AsString()
		path := filepath.Join(dir, id)
		if _, err := os.Stat(path); err != nil {
			return cty.NilVal, fmt.Errorf("update test_file %s: %w", id, err)
		}
		if err := os.WriteFile(path, []byte(planned.GetAttr("content").AsString()), 0o600); err != nil {
			return cty.NilVal, fmt.Errorf("update test_file %s: %w", id, err)
		}
		return planned, nil
	}
}

// newFileID is the id of a new test_file: the planned one when the
// configuration names it, else random hex.
func newFileID(planned cty.Value) (string, error) {
	if planned.IsKnown() && !planned.IsNull() {
		return planned.AsString(), nil
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("create test_file: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// planFile plans a test_file change in m (the proposed object, whose id is
// already unknown on a create): a file the configuration names (config.id)
// keeps that name, and its planned identity is known from the plan on;
// changing key or the configured id replaces the file.
func planFile(prior, config cty.Value, m map[string]cty.Value, resp *tfplugin6.PlanResourceChange_Response) {
	named := cty.NullVal(cty.String)
	if !config.IsNull() {
		named = config.GetAttr("id")
	}
	var replace []*tfplugin6.AttributePath
	if !prior.IsNull() && !prior.GetAttr("key").RawEquals(m["key"]) {
		replace = append(replace, &tfplugin6.AttributePath{Steps: []*tfplugin6.AttributePath_Step{attrStep("key")}})
	}
	if !prior.IsNull() && !named.IsNull() && !prior.GetAttr("id").RawEquals(named) {
		replace = append(replace, &tfplugin6.AttributePath{Steps: []*tfplugin6.AttributePath_Step{attrStep("id")}})
	}
	if len(replace) > 0 {
		resp.RequiresReplace = replace
		m["id"] = cty.UnknownVal(cty.String).RefineNotNull()
	}
	if !named.IsNull() && (prior.IsNull() || len(replace) > 0) {
		m["id"] = named
		if named.IsKnown() {
			resp.PlannedIdentity = fileIdentity(cty.ObjectVal(m))
		}
	}
}
