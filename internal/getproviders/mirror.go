package getproviders

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"strings"

	"github.com/rig-iac/rig/internal/addrs"
)

// WriteMirrorArchive puts pkg into dir, a mirror in the packed layout
// (HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip): an
// archive is copied, an unpacked directory zipped. It returns the path
// written.
func WriteMirrorArchive(dir string, pkg Package) (string, error) {
	p := pkg.Provider
	to := filepath.Join(dir, p.Hostname, p.Namespace, p.Type,
		fmt.Sprintf("terraform-provider-%s_%s_%s.zip", p.Type, pkg.Version, pkg.Platform))
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return "", fmt.Errorf("mirror %s: %w", pkg.Location, err)
	}
	switch pkg.Kind {
	case PackageZip:
		if err := copyFile(pkg.Location, to, 0o644); err != nil {
			return "", fmt.Errorf("mirror %s: %w", pkg.Location, err)
		}
	case PackageUnpacked:
		if err := zipDir(pkg.Location, to); err != nil {
			return "", fmt.Errorf("mirror %s: %w", pkg.Location, err)
		}
	default:
		return "", fmt.Errorf("mirror %s: unknown package kind %d", pkg.Location, pkg.Kind)
	}
	return to, nil
}

// zipDir writes the files under dir (after following a symlink to it) to
// a new archive at path, with their modes.
func zipDir(dir, path string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	err = filepath.Walk(real, func(file string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, err := filepath.Rel(real, file)
		if err != nil {
			return err
		}
		h, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		h.Name, h.Method = filepath.ToSlash(rel), zip.Deflate
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		in, err := os.Open(file)
		if err != nil {
			return err
		}
		defer in.Close()
		_, err = io.Copy(w, in)
		return err
	})
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteMirrorIndex writes the JSON files of the network mirror protocol
// for p in dir, a packed mirror: HOST/NAMESPACE/TYPE/index.json listing
// the versions of every archive there, and VERSION.json for each version
// listing its archives by platform with their h1: hashes.
func WriteMirrorIndex(dir string, p addrs.Provider) error {
	pdir := filepath.Join(dir, p.Hostname, p.Namespace, p.Type)
	entries, err := os.ReadDir(pdir)
	if err != nil {
		return fmt.Errorf("index mirror %s: %w", pdir, err)
	}
	archives := map[string]map[string]mirrorArchive{} // version, platform
	prefix := "terraform-provider-" + p.Type + "_"
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		rest, zipped := strings.CutSuffix(rest, ".zip")
		parts := strings.Split(rest, "_")
		if !ok || !zipped || len(parts) != 3 {
			continue
		}
		v, err := ParseVersion(parts[0])
		if err != nil {
			continue
		}
		h1, err := HashZip(filepath.Join(pdir, e.Name()))
		if err != nil {
			return fmt.Errorf("index mirror %s: %w", pdir, err)
		}
		if archives[v.String()] == nil {
			archives[v.String()] = map[string]mirrorArchive{}
		}
		archives[v.String()][parts[1]+"_"+parts[2]] = mirrorArchive{URL: e.Name(), Hashes: []string{h1}}
	}
	versions := map[string]struct{}{}
	for v, byPlatform := range archives {
		versions[v] = struct{}{}
		if err := writeJSON(filepath.Join(pdir, v+".json"), mirrorVersion{Archives: byPlatform}); err != nil {
			return fmt.Errorf("index mirror %s: %w", pdir, err)
		}
	}
	if err := writeJSON(filepath.Join(pdir, "index.json"), mirrorIndex{Versions: versions}); err != nil {
		return fmt.Errorf("index mirror %s: %w", pdir, err)
	}
	return nil
}

// The network mirror protocol's index.json and VERSION.json.
type (
	mirrorIndex struct {
		Versions map[string]struct{} `json:"versions"`
	}
	mirrorVersion struct {
		Archives map[string]mirrorArchive `json:"archives"`
	}
	mirrorArchive struct {
		URL    string   `json:"url"`
		Hashes []string `json:"hashes"`
	}
)

func writeJSON[T mirrorIndex | mirrorVersion](path string, v T) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
