// Package getmodules owns module installation: it parses module source
// addresses, installs the modules a configuration calls into the layout
// Terraform and OpenTofu use (local modules stay where they are, git
// sources are cloned into .terraform/modules/KEY), and reads and writes the
// module manifest .terraform/modules/modules.json byte for byte as they do,
// so that either tool can use a working directory rig initialized and the
// other way round.
//
// Supported sources are local paths ("./x", "../x") and git repositories
// ("git::https://…", "git::ssh://…", "git::file://…", "git@host:path").
// Module registry addresses and the other remote kinds are recognised and
// reported as unsupported.
//
// It may import internal/addrs, internal/config and internal/diag, and hcl;
// git is run as an external program.
package getmodules
