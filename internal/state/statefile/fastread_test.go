package statefile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// resourceSeeds are resource elements that decodeResource must decode or
// leave to encoding/json, each a case json.Unmarshal treats its own way.
var resourceSeeds = []string{
	`{"mode":"managed","type":"t","name":"n","provider":"provider[\"registry.terraform.io/hashicorp/t\"]","instances":[{"schema_version":0,"attributes":{"a":"x"},"sensitive_attributes":[],"dependencies":["t.a","module.m.t.b"]}]}`,
	` { "module" : "module.a[\"x\"]" , "mode":"data","type":"t","name":"n","each":"list","instances":[ {"index_key":"k","deposed":"01234567","status":"tainted","schema_version":1,"private":"AA==","identity":null,"identity_schema_version":2,"create_before_destroy":true,"skip_destroy":true,"provider":"provider[\"a/b/c\"].x[\"k\"]"} ] } `,
	`{"mode":"managed","type":"t","name":"n","instances":null}`,
	`{"mode":"managed","type":"t","name":"n","instances":[]}`,
	`{"mode":"managed","type":"t","name":null,"instances":[{"index_key":1e1,"schema_version":null,"attributes":null,"private":null,"dependencies":null,"create_before_destroy":null}]}`,
	`{"mode":"managed","type":"caf\u00e9","name":"\u00e9\\u00e9\"","unknown":{"x":[1,-2.5e+3,true,false,null,"\\/"]},"instances":[{"attributes":{"deep":[[[[{}]]]]}}]}`,
	`{"Mode":"managed","type":"t","name":"n","instances":[]}`,
	`{"mode":"managed","mode":"data","type":"t","name":"n","instances":[]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"attributes_flat":{"a":"b"}}]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"schema_version":-1}]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"schema_version":1.5}]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"private":[1,2]}]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"private":"!!"}]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"attributes":{"a":"x"},}]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"attributes":{"a":"` + "\x01" + `"}}]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"attributes":01}]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"ſtatus":"tainted"}]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"create_before_destroy":"true"}]}`,
	`{"mode":"managed","type":"t","name":"n","instances":[{"attributes":{"a":"\u12"}}]}`,
	`{"mode":1,"type":"t","name":"n"}`,
	`{}`,
	`[]`,
	`{"instances":[{}]}x`,
}

// FuzzDecodeResource checks decodeResource against json.Unmarshal: what it
// decodes, encoding/json decodes too, to the same value.
func FuzzDecodeResource(f *testing.F) {
	for _, s := range resourceSeeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("testdata/*.tfstate")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if _, elems, ok := resourceElements(data); ok {
			for _, e := range elems {
				f.Add(data[e.from:e.to])
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got resourceV4
		if !decodeResource(data, 0, len(data), &got) {
			return
		}
		var want resourceV4
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("decodeResource accepted what json.Unmarshal rejects (%v): %s", err, data)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("decodeResource differs from json.Unmarshal (-json +fast):\n%s", diff)
		}
	})
}

// TestDecodeResourceFastPath: the resources of the state files rig and
// OpenTofu write are decoded without encoding/json.
func TestDecodeResourceFastPath(t *testing.T) {
	data, err := Marshal(layeredState(t, 100))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/*.tfstate")
	inputs := map[string][]byte{"layered": data}
	for _, file := range files {
		if inputs[file], err = os.ReadFile(file); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range inputs {
		_, elems, ok := resourceElements(data)
		if !ok {
			t.Fatalf("%s: no resources array", name)
		}
		for _, e := range elems {
			var r resourceV4
			if !decodeResource(data, e.from, e.to, &r) && !bytes.Contains(data[e.from:e.to], []byte(`"attributes_flat"`)) {
				t.Errorf("%s: decodeResource leaves %s to encoding/json", name, data[e.from:e.to])
			}
		}
	}
}
