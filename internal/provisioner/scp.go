package provisioner

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/crypto/ssh"
)

// uploadFile writes size bytes of r to the file dst on the remote host over
// the SCP protocol ("scp -vt DIR" in sink mode), as OpenTofu does: the file
// is created with mode 0644.
func uploadFile(c *ssh.Client, dst string, r io.Reader, size int64) error {
	dir, name := path.Dir(dst), path.Base(dst)
	return scpSession(c, "scp -vt "+shellQuote(dir), func(w io.Writer, acks *bufio.Reader) error {
		return scpFile(w, acks, name, 0o644, r, size)
	})
}

// uploadDir copies the local directory src to dst on the remote host over
// SCP ("scp -rvt DST"). As in OpenTofu, a src ending in a slash copies its
// contents into dst; without one, the directory itself is created in dst.
// Symbolic links are followed.
func uploadDir(c *ssh.Client, dst, src string) error {
	return scpSession(c, "scp -rvt "+shellQuote(dst), func(w io.Writer, acks *bufio.Reader) error {
		if strings.HasSuffix(src, "/") || strings.HasSuffix(src, string(filepath.Separator)) {
			return scpDirEntries(w, acks, src)
		}
		fi, err := os.Stat(src)
		if err != nil {
			return err
		}
		return scpDir(w, acks, filepath.Base(src), fi.Mode().Perm(), src)
	})
}

// scpSession runs command on c and calls send with its standard input and
// output once the sink has acknowledged it started.
func scpSession(c *ssh.Client, command string, send func(w io.Writer, acks *bufio.Reader) error) error {
	s, err := c.NewSession()
	if err != nil {
		return err
	}
	defer s.Close()
	w, err := s.StdinPipe()
	if err != nil {
		return err
	}
	out, err := s.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	s.Stderr = &stderr
	if err := s.Start(command); err != nil {
		return err
	}
	acks := bufio.NewReader(out)
	err = scpAck(acks)
	if err == nil {
		err = send(w, acks)
	}
	w.Close()
	if werr := s.Wait(); err == nil && werr != nil {
		err = fmt.Errorf("%s: %w: %s", command, werr, strings.TrimSpace(stderr.String()))
	}
	return err
}

// scpAck reads the sink's reply to the last message: a zero byte, or a
// warning or error with its message.
func scpAck(r *bufio.Reader) error {
	b, err := r.ReadByte()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("scp: the remote end closed the connection")
		}
		return err
	}
	if b == 0 {
		return nil
	}
	msg, _ := r.ReadString('\n')
	return fmt.Errorf("scp: %s", strings.TrimSuffix(msg, "\n"))
}

func scpFile(w io.Writer, acks *bufio.Reader, name string, mode os.FileMode, r io.Reader, size int64) error {
	if _, err := fmt.Fprintf(w, "C%04o %d %s\n", mode, size, name); err != nil {
		return err
	}
	if err := scpAck(acks); err != nil {
		return err
	}
	if n, err := io.CopyN(w, r, size); err != nil {
		return fmt.Errorf("%s: wrote %d of %d bytes: %w", name, n, size, err)
	}
	if _, err := w.Write([]byte{0}); err != nil {
		return err
	}
	return scpAck(acks)
}

func scpDir(w io.Writer, acks *bufio.Reader, name string, mode os.FileMode, src string) error {
	if _, err := fmt.Fprintf(w, "D%04o 0 %s\n", mode, name); err != nil {
		return err
	}
	if err := scpAck(acks); err != nil {
		return err
	}
	if err := scpDirEntries(w, acks, src); err != nil {
		return err
	}
	if _, err := fmt.Fprint(w, "E\n"); err != nil {
		return err
	}
	return scpAck(acks)
}

// scpDirEntries sends what the directory src holds, in name order.
func scpDirEntries(w io.Writer, acks *bufio.Reader, src string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		p := filepath.Join(src, e.Name())
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if fi.IsDir() {
			if err := scpDir(w, acks, e.Name(), fi.Mode().Perm(), p); err != nil {
				return err
			}
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = scpFile(w, acks, e.Name(), fi.Mode().Perm(), f, fi.Size())
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
