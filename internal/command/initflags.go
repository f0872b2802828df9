package command

import (
	"flag"
	"fmt"

	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/workdir"
)

// initFlags are init's flags other than its backend step's (addInitBackendFlags).
type initFlags struct {
	// backend is false with -backend=false: the backend step is skipped and
	// the backend the last init recorded stays in use.
	backend bool
	// get is false with -get=false: modules already installed are not
	// installed again.
	get bool
	// pluginDirs are the -plugin-dir directories, in the order given.
	pluginDirs []string
	// upgrade selects provider versions again, ignoring the lock file.
	upgrade bool
	// lockfileReadonly is -lockfile=readonly: the dependency lock file is
	// checked, never written.
	lockfileReadonly bool
	// fromModule is -from-module: the module copied into the empty
	// working directory first (initfrom.go); "" for none.
	fromModule string
	// stream is -json and -json-into.
	stream streamFlags
	// testDir is -test-directory: where the test files whose modules init
	// installs are, besides the working directory.
	testDir string
}

func addInitFlags(fs *flag.FlagSet, f *initFlags) {
	fs.BoolVar(&f.backend, "backend", true, "Skip the backend step: keep using the backend the last init configured, without checking or migrating it.")
	fs.Var(cliargs.NewBool(func(on bool) { f.backend = on }, func() bool { return f.backend }), "cloud", "The same as -backend, which OpenTofu and Terraform accept under this name too.")
	fs.StringVar(&f.fromModule, "from-module", "", "Copy the module at `SOURCE` (a local path, a registry address, a git or HTTP source) into the working directory, which must be empty, before initializing it.")
	addStreamFlags(fs, &f.stream)
	fs.BoolVar(&f.get, "get", true, "Don't install the modules the configuration calls when they are installed already.")
	fs.Func("plugin-dir", "Search for providers only in `DIR`, a filesystem mirror, instead of the default locations, and remember it for later inits. Use this option more than once for more than one directory.", func(s string) error {
		f.pluginDirs = append(f.pluginDirs, s)
		return nil
	})
	fs.BoolVar(&f.upgrade, "upgrade", false, "Install the newest provider versions the configuration allows, ignoring the selections in the dependency lock file.")
	addTestDirFlag(fs, &f.testDir)
	fs.Func("lockfile", "Set the dependency lock file `MODE`. The only mode is readonly: use the versions the lock file selects and fail, without writing it, if the providers the configuration requires differ from those it records.", func(s string) error {
		if s != "readonly" {
			return fmt.Errorf("unknown mode %q: the only mode is readonly", s)
		}
		f.lockfileReadonly = true
		return nil
	})
}

// checkInitAliases reports -backend and -cloud given together: they are one
// option under two names, as in OpenTofu.
func checkInitAliases(fs *flag.FlagSet) string {
	var backend, cloud bool
	fs.Visit(func(f *flag.Flag) {
		backend = backend || f.Name == "backend"
		cloud = cloud || f.Name == "cloud"
	})
	if backend && cloud {
		return "The -backend and -cloud options are aliases of one another and mutually-exclusive in their use."
	}
	return ""
}

// addInitBackendFlags defines init's backend options, named as Terraform
// names them.
func addInitBackendFlags(fs *flag.FlagSet, f *workdir.InitBackendOptions) {
	fs.Func("backend-config", "Backend configuration merged over the backend block: a `KEY=VALUE` pair, or the path of a file of such attributes. Use this option more than once to set more than one.", func(s string) error {
		f.Configs = append(f.Configs, s)
		return nil
	})
	fs.BoolVar(&f.Migrate, "migrate-state", false, "Copy the state of every workspace from the previous backend to the newly configured one.")
	fs.BoolVar(&f.Reconfigure, "reconfigure", false, "Use the configured backend as it is, ignoring any state in the previous one.")
	fs.BoolVar(&f.ForceCopy, "force-copy", false, "With -migrate-state, copy without asking, overwriting the states in the new backend.")
	addLockFlags(fs, &f.Lock.Lock, &f.Lock.Timeout)
}
