package workdir

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/state/statemgr"
	"github.com/rig-iac/rig/internal/version"
)

// erroredStatePath is where an operation that could not persist its state
// to the backend leaves it, as Terraform does.
const erroredStatePath = "errored.tfstate"

// PersistFailed handles the failure of an operation's final state write:
// it writes the state, at the serial the write would have given it, to
// errored.tfstate in the working directory (or, if even that fails, to out,
// the command's standard output) and returns diagnostics that say how to
// recover with `rig state push`.
func (d *Dir) PersistFailed(s *state.State, w *statemgr.Writer, cause error, out io.Writer) diag.Diagnostics {
	ds := diag.Diagnostics{diag.Errorf("Failed to save state", "Error saving state: %s", cause)}
	s.Lineage, s.Serial = w.Next()
	s.TerraformVersion = version.Terraform
	data, err := statefile.Marshal(s)
	if err == nil {
		data, err = d.encryption.EncryptState(data)
	}
	if err == nil {
		err = writePrivateFile(d.path(erroredStatePath), data)
	}
	if err != nil {
		if data != nil {
			fmt.Fprintf(out, "%s\n", data)
		}
		return ds.Append(diag.Errorf("Failed to persist state to backend",
			"The error shown above has prevented rig from writing the updated state to the configured backend, and rig could not write it to %s either (%s). The state is printed above: save it to a file and, once the backend is reachable again, upload it with:\n    rig state push FILE", erroredStatePath, err))
	}
	return ds.Append(diag.Errorf("Failed to persist state to backend",
		"The error shown above has prevented rig from writing the updated state to the configured backend. To allow for recovery, the state has been written to the file \"%s\" in the current working directory.\n\nRunning \"rig apply\" again at this point will create a forked state, making it harder to recover.\n\nTo retry writing this state, use the following command:\n    rig state push %s", erroredStatePath, erroredStatePath))
}

// SaveErroredTestState writes what the cleanup of a rig test file left
// behind into the working directory, mode 0600: errored_test.tfstate for
// the first (saved = 0), errored_test.N.tfstate for the next ones. It
// returns the file's name.
func (d *Dir) SaveErroredTestState(s *state.State, saved int) (string, error) {
	name := "errored_test.tfstate"
	if saved > 0 {
		name = "errored_test." + strconv.Itoa(saved+1) + ".tfstate"
	}
	b, err := statefile.Marshal(s)
	if err != nil {
		return "", err
	}
	if err := writePrivateFile(d.path(name), b); err != nil {
		return "", err
	}
	return name, nil
}

// writePrivateFile writes data to path with mode 0600 whatever the umask;
// an existing file keeps its mode less any group and other bits, so a
// stricter mode stays and a wider one is narrowed.
func writePrivateFile(path string, data []byte) error {
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm() & 0o600
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
