package getproviders

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"
)

// A package hash as the lock file records it: "h1:BASE64" (Go's dirhash
// Hash1 over the package's files, the same for a zip and for its unpacked
// directory) or "zh:HEX" (SHA-256 of the zip archive, as registries publish).
const (
	hashSchemeH1 = "h1:"
	hashSchemeZH = "zh:"
)

// HashDir returns the h1: hash of an unpacked package directory (after
// following a symlink to it), as Terraform computes it.
func HashDir(dir string) (string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", dir, err)
	}
	h, err := dirhash.HashDir(real, "", dirhash.Hash1)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", dir, err)
	}
	return h, nil
}

// HashZip returns the h1: hash of a package archive: the hash of the
// directory it unpacks to.
func HashZip(path string) (string, error) {
	h, err := dirhash.HashZip(path, dirhash.Hash1)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return h, nil
}

// HashZipLegacy returns the zh: hash of a package archive: the SHA-256 of
// the file itself.
func HashZipLegacy(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return hashSchemeZH + hex.EncodeToString(h.Sum(nil)), nil
}

// hasScheme reports whether any hash in hashes uses scheme.
func hasScheme(hashes []string, scheme string) bool {
	for _, h := range hashes {
		if strings.HasPrefix(h, scheme) {
			return true
		}
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
