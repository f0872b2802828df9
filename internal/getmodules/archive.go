package getmodules

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// archiveFormat is the format of a module package downloaded over HTTP.
type archiveFormat uint8

const (
	noArchive archiveFormat = iota
	zipArchive
	tarArchive
	tarGzArchive
	tarBz2Archive
)

// String returns the format's name as the archive query parameter gives it.
func (f archiveFormat) String() string {
	switch f {
	case noArchive:
		return "none"
	case zipArchive:
		return "zip"
	case tarArchive:
		return "tar"
	case tarGzArchive:
		return "tar.gz"
	case tarBz2Archive:
		return "tar.bz2"
	}
	return fmt.Sprintf("archiveFormat(%d)", uint8(f))
}

// archiveFormatNamed returns the format a value of the archive query
// parameter (or a file extension without its dot) names; noArchive for
// any other.
func archiveFormatNamed(name string) archiveFormat {
	switch name {
	case "zip":
		return zipArchive
	case "tar":
		return tarArchive
	case "tar.gz", "tgz":
		return tarGzArchive
	case "tar.bz2", "tbz2":
		return tarBz2Archive
	}
	return noArchive
}

// archiveSuffixes are the file extensions that make a URL an archive,
// longest first.
var archiveSuffixes = []string{"tar.bz2", "tar.gz", "tbz2", "tgz", "zip", "tar"}

// archiveOf returns the archive format of an HTTP source URL (its archive
// query parameter, else its path's extension) and the URL to download,
// without the archive parameter. "archive=false" means no archive.
func archiveOf(rawURL string) (archiveFormat, string, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return noArchive, "", err
	}
	q := u.Query()
	if a, ok := q["archive"]; ok {
		q.Del("archive")
		u.RawQuery = q.Encode()
		if len(a) == 1 && a[0] == "false" {
			return noArchive, u.String(), nil
		}
		if len(a) != 1 || archiveFormatNamed(a[0]) == noArchive {
			return noArchive, "", fmt.Errorf("unsupported archive format %q", strings.Join(a, ","))
		}
		return archiveFormatNamed(a[0]), u.String(), nil
	}
	for _, suffix := range archiveSuffixes {
		if strings.HasSuffix(u.Path, "."+suffix) {
			return archiveFormatNamed(suffix), rawURL, nil
		}
	}
	return noArchive, rawURL, nil
}

// sniffArchive recognises an archive's format from its first bytes
// (zip, gzip- or bzip2-compressed tar, plain tar) and rewinds f.
func sniffArchive(f *os.File) (archiveFormat, error) {
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return noArchive, err
	}
	head = head[:n]
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return noArchive, err
	}
	switch {
	case strings.HasPrefix(string(head), "PK\x03\x04"), strings.HasPrefix(string(head), "PK\x05\x06"):
		return zipArchive, nil
	case strings.HasPrefix(string(head), "\x1f\x8b"):
		return tarGzArchive, nil
	case strings.HasPrefix(string(head), "BZh"):
		return tarBz2Archive, nil
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return tarArchive, nil
	}
	return noArchive, fmt.Errorf("%w: not a zip, tar, tar.gz or tar.bz2 archive", errArchive)
}

// Limits bounds what extracting one module package may write.
type Limits struct {
	// MaxBytes is the most a downloaded archive and the files it holds
	// may take, each counted separately; 0 means 1 GiB.
	MaxBytes int64
	// MaxFiles is the most entries an archive may hold; 0 means 100,000.
	MaxFiles int
}

func (l Limits) maxBytes() int64 {
	if l.MaxBytes > 0 {
		return l.MaxBytes
	}
	return 1 << 30
}

func (l Limits) maxFiles() int {
	if l.MaxFiles > 0 {
		return l.MaxFiles
	}
	return 100_000
}

// errArchive marks an archive that cannot be extracted safely or at all.
var errArchive = errors.New("invalid archive")

// extractor writes the entries of one archive under dir, which it owns
// while it runs. Regular files and directories are written as they come;
// symbolic links are created at the end, once no more files will be
// written, and only when they point inside dir, so no entry is ever
// written through a link.
type extractor struct {
	dir     string
	limits  Limits
	written int64
	entries int
	links   []pendingLink
}

type pendingLink struct{ name, target string }

// extractArchive extracts the archive file f (format) into dir, which must
// exist and be empty.
func extractArchive(f *os.File, format archiveFormat, dir string, limits Limits) error {
	x := &extractor{dir: dir, limits: limits}
	var err error
	switch format {
	case zipArchive:
		err = x.zip(f)
	case tarArchive:
		err = x.tar(bufio.NewReader(f))
	case tarGzArchive:
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bufio.NewReader(f)); err == nil {
			err = x.tar(zr)
		} else {
			err = fmt.Errorf("%w: gzip: %v", errArchive, err)
		}
	case tarBz2Archive:
		err = x.tar(bzip2.NewReader(bufio.NewReader(f)))
	default:
		err = fmt.Errorf("%w: unknown format %s", errArchive, format)
	}
	if err != nil {
		return err
	}
	return x.finishLinks()
}

func (x *extractor) zip(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(f, fi.Size())
	if err != nil {
		return fmt.Errorf("%w: zip: %v", errArchive, err)
	}
	for _, zf := range zr.File {
		mode := zf.Mode()
		switch {
		case mode.IsDir():
			if err := x.mkdir(zf.Name); err != nil {
				return err
			}
		case mode&os.ModeSymlink != 0:
			rc, err := zf.Open()
			if err != nil {
				return fmt.Errorf("%w: %s: %v", errArchive, zf.Name, err)
			}
			target, err := io.ReadAll(io.LimitReader(rc, 4096))
			rc.Close()
			if err != nil {
				return fmt.Errorf("%w: %s: %v", errArchive, zf.Name, err)
			}
			if err := x.link(zf.Name, string(target)); err != nil {
				return err
			}
		case mode.IsRegular():
			rc, err := zf.Open()
			if err != nil {
				return fmt.Errorf("%w: %s: %v", errArchive, zf.Name, err)
			}
			err = x.file(zf.Name, mode, rc)
			rc.Close()
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("%w: %s is a %s, not a file, directory or symbolic link", errArchive, zf.Name, mode.Type())
		}
	}
	return nil
}

func (x *extractor) tar(r io.Reader) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: tar: %v", errArchive, err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = x.mkdir(h.Name)
		case tar.TypeReg:
			err = x.file(h.Name, h.FileInfo().Mode(), tr)
		case tar.TypeSymlink:
			err = x.link(h.Name, h.Linkname)
		case tar.TypeXGlobalHeader, tar.TypeXHeader, tar.TypeGNULongName, tar.TypeGNULongLink:
			continue
		default:
			err = fmt.Errorf("%w: %s has tar type %q, which rig does not extract (only files, directories and symbolic links)", errArchive, h.Name, h.Typeflag)
		}
		if err != nil {
			return err
		}
	}
}

// target checks an entry's name and returns where it goes. Names are
// slash-separated and relative; "..", absolute names and names that
// clean to the archive root are refused.
func (x *extractor) target(name string) (string, error) {
	x.entries++
	if x.entries > x.limits.maxFiles() {
		return "", fmt.Errorf("%w: more than %d entries", errArchive, x.limits.maxFiles())
	}
	clean, err := entryName(name)
	if err != nil {
		return "", err
	}
	return filepath.Join(x.dir, filepath.FromSlash(clean)), nil
}

// entryName cleans an archive entry's name; one that is absolute or
// leads outside of the archive is an error.
func entryName(name string) (string, error) {
	n := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(n, "/") || (len(n) > 1 && n[1] == ':') {
		return "", fmt.Errorf("%w: the entry %q has an absolute path", errArchive, name)
	}
	clean := path.Clean(n)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%w: the entry %q leads outside of the archive", errArchive, name)
	}
	return clean, nil
}

func (x *extractor) mkdir(name string) error {
	p, err := x.target(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		return fmt.Errorf("%w: %s: %v", errArchive, name, err)
	}
	return nil
}

func (x *extractor) file(name string, mode os.FileMode, r io.Reader) error {
	p, err := x.target(name)
	if err != nil {
		return err
	}
	if p == x.dir {
		return fmt.Errorf("%w: the file entry %q names the archive root", errArchive, name)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("%w: %s: %v", errArchive, name, err)
	}
	perm := os.FileMode(0o644)
	if mode&0o111 != 0 {
		perm = 0o755
	}
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", errArchive, name, err)
	}
	left := x.limits.maxBytes() - x.written
	n, err := io.Copy(out, io.LimitReader(r, left+1))
	x.written += n
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%w: %s: %v", errArchive, name, err)
	}
	if n > left {
		return fmt.Errorf("%w: its files hold more than %d bytes", errArchive, x.limits.maxBytes())
	}
	return nil
}

func (x *extractor) link(name, target string) error {
	p, err := x.target(name)
	if err != nil {
		return err
	}
	clean, _ := entryName(name)
	t := strings.ReplaceAll(target, `\`, "/")
	if target == "" || strings.HasPrefix(t, "/") || (len(t) > 1 && t[1] == ':') {
		return fmt.Errorf("%w: the symbolic link %q points to the absolute path %q", errArchive, name, target)
	}
	resolved := path.Join(path.Dir(clean), t)
	if resolved == ".." || strings.HasPrefix(resolved, "../") {
		return fmt.Errorf("%w: the symbolic link %q points outside of the archive (%q)", errArchive, name, target)
	}
	if p == x.dir {
		return fmt.Errorf("%w: the symbolic link %q names the archive root", errArchive, name)
	}
	x.links = append(x.links, pendingLink{name: clean, target: t})
	return nil
}

// finishLinks creates the symbolic links, refusing one whose directory
// goes through another link (its target was only checked as if it did not).
func (x *extractor) finishLinks() error {
	for _, l := range x.links {
		dir := x.dir
		for _, part := range strings.Split(path.Dir(l.name), "/") {
			if part == "." {
				break
			}
			dir = filepath.Join(dir, part)
			fi, err := os.Lstat(dir)
			if err == nil && fi.Mode()&os.ModeSymlink != 0 {
				return fmt.Errorf("%w: the symbolic link %q lies behind another symbolic link", errArchive, l.name)
			}
		}
		p := filepath.Join(x.dir, filepath.FromSlash(l.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("%w: %s: %v", errArchive, l.name, err)
		}
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("%w: the symbolic link %q is also another entry of the archive", errArchive, l.name)
		}
		if err := os.Symlink(filepath.FromSlash(l.target), p); err != nil {
			return fmt.Errorf("%w: %s: %v", errArchive, l.name, err)
		}
	}
	if len(x.links) == 0 {
		return nil
	}
	// A link may resolve through another one (a link to ".", say), so
	// check where each one leads now that all exist.
	root, err := filepath.EvalSymlinks(x.dir)
	if err != nil {
		return fmt.Errorf("extract: %w", err)
	}
	for _, l := range x.links {
		real, err := filepath.EvalSymlinks(filepath.Join(x.dir, filepath.FromSlash(l.name)))
		if err != nil {
			return fmt.Errorf("%w: the symbolic link %q points to nothing in the archive (%q)", errArchive, l.name, l.target)
		}
		if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("%w: the symbolic link %q points outside of the archive (%q)", errArchive, l.name, l.target)
		}
	}
	return nil
}
