package getmodules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// ManifestFile is the name of the manifest inside the modules directory
// (.terraform/modules/modules.json).
const ManifestFile = "modules.json"

// Record is one installed module in the manifest.
type Record struct {
	// Key is the dotted path of module call names from the root: "" for the
	// root module, "net" for module "net" of the root, "net.sub" for module
	// "sub" called by it.
	Key string `json:"Key"`
	// Source is the normalized source address (Source.String()); "" for the root.
	Source string `json:"Source"`
	// Version is the selected version of a registry module; "" otherwise,
	// and then omitted from the file.
	Version string `json:"Version,omitempty"`
	// Dir is the module's directory relative to the working directory,
	// with forward slashes: "." for the root, "modules/net",
	// ".terraform/modules/app/modules/x".
	Dir string `json:"Dir"`
}

// Manifest is the content of modules.json: the modules installed in a
// working directory, the root module included.
type Manifest struct {
	// Records are sorted by Key when the manifest was read or built by
	// Install; WriteManifest writes them sorted whatever their order.
	Records []Record `json:"Modules"`
}

// Record returns the record of the module with the given key.
func (m Manifest) Record(key string) (Record, bool) {
	for _, r := range m.Records {
		if r.Key == key {
			return r, true
		}
	}
	return Record{}, false
}

// Dir returns the directory (relative to the working directory, with
// forward slashes) of the module with the given key, and whether the
// manifest records it.
func (m Manifest) Dir(key string) (string, bool) {
	r, ok := m.Record(key)
	return r.Dir, ok
}

// ReadManifest reads modulesDir/modules.json (modulesDir is normally
// .terraform/modules). A missing file is an empty manifest; a file that
// cannot be read or decoded, or that records a key twice, is an error
// naming its path. The records are returned sorted by Key.
func ReadManifest(modulesDir string) (Manifest, error) {
	path := filepath.Join(modulesDir, ManifestFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, nil
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("read module manifest %s: %w", path, err)
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("read module manifest %s: %w", path, err)
	}
	if dec.More() {
		return Manifest{}, fmt.Errorf("read module manifest %s: data after the JSON object", path)
	}
	sortRecords(m.Records)
	for i := 1; i < len(m.Records); i++ {
		if m.Records[i].Key == m.Records[i-1].Key {
			return Manifest{}, fmt.Errorf("read module manifest %s: module %q is recorded twice", path, m.Records[i].Key)
		}
	}
	return m, nil
}

// WriteManifest writes m to modulesDir/modules.json in the form Terraform
// and OpenTofu write it: compact JSON sorted by Key, no trailing newline,
// mode 0644. It creates modulesDir if needed and replaces the file
// atomically (a temporary file renamed over it). m is not modified.
func WriteManifest(modulesDir string, m Manifest) error {
	data, err := marshalManifest(m)
	if err != nil {
		return fmt.Errorf("write module manifest: %w", err)
	}
	if err := os.MkdirAll(modulesDir, 0o755); err != nil {
		return fmt.Errorf("write module manifest: %w", err)
	}
	path := filepath.Join(modulesDir, ManifestFile)
	tmp, err := os.CreateTemp(modulesDir, ManifestFile+".tmp*")
	if err != nil {
		return fmt.Errorf("write module manifest %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write module manifest %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("write module manifest %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write module manifest %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write module manifest %s: %w", path, err)
	}
	return nil
}

// marshalManifest encodes m as Terraform does: encoding/json's compact form
// (with its HTML escaping, "&" as \u0026), records sorted by Key, an empty
// list as [].
func marshalManifest(m Manifest) ([]byte, error) {
	records := make([]Record, len(m.Records))
	copy(records, m.Records)
	sortRecords(records)
	return json.Marshal(Manifest{Records: records})
}

func sortRecords(rs []Record) {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Key < rs[j].Key })
}
