// Package getproviders owns provider installation: it reads the sources
// providers come from (local filesystem mirrors in the unpacked
// HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/ and packed
// HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip layouts,
// the implied mirror directories Terraform and OpenTofu search, a CLI
// configuration's provider_installation and plugin_cache_dir), selects a
// version for each required provider from its version constraints and the
// dependency lock file, installs the package into .terraform/providers,
// computes and verifies its h1: (and, for zips, zh:) hashes, and reads and
// writes .terraform.lock.hcl in the exact form Terraform writes it. It
// selects and hashes packages without installing them (providers lock),
// and writes a packed mirror with the network mirror protocol's index
// files (providers mirror). It
// also decides under which registry host, Terraform's or OpenTofu's, a
// working directory records a provider whose source names none
// (RegistryHosts).
//
// Sources sit behind the Source interface so that a registry client can be
// added beside the filesystem mirror without touching the installer.
//
// It imports internal/addrs, internal/diag, hcl and golang.org/x/mod.
package getproviders
