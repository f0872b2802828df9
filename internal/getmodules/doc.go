// Package getmodules owns module installation: it parses module source
// addresses, installs the modules a configuration calls into the layout
// Terraform and OpenTofu use (local modules stay where they are, remote
// packages go into .terraform/modules/KEY), and reads and writes the
// module manifest .terraform/modules/modules.json byte for byte as they do,
// so that either tool can use a working directory rig initialized and the
// other way round.
//
// Supported sources are local paths ("./x", "../x"), module registry
// addresses ("[HOST/]NAMESPACE/NAME/SYSTEM", looked up with the modules.v1
// protocol after service discovery, registry.go), git repositories
// ("git::https://…", "git::ssh://…", "git::file://…", "git@host:path",
// cloned with the git program, git.go) and HTTP(S) URLs (archives
// extracted with limits and no path leaving the module directory,
// archive.go; other URLs followed through their X-Terraform-Get answer,
// http.go). Tokens for registries and package hosts come from the CLI
// configuration, terraform login's credentials file and TF_TOKEN_…
// variables (credentials.go) and go to their own host only. The other
// remote kinds (s3, gcs, hg…) are recognised and reported as unsupported.
// The tree `rig modules` draws of the calls and what is installed for
// them is tree.go's.
//
// It may import internal/addrs, internal/config, internal/diag,
// internal/getproviders (version constraints) and internal/parallel, and
// hcl; git is run as an external program.
package getmodules
