// Package getproviders owns provider installation: it reads the sources
// providers come from (local filesystem mirrors in the unpacked
// HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/ and packed
// HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip layouts,
// provider registries through the provider registry protocol, network
// mirrors, the implied methods Terraform and OpenTofu use, a CLI
// configuration's provider_installation, host, credentials and
// plugin_cache_dir), downloads and authenticates remote packages (SHA-256
// sums and the OpenPGP signature of a registry's SHA256SUMS), selects a
// version for each required provider from its version constraints and the
// dependency lock file, installs the package into .terraform/providers,
// computes and verifies its h1: (and, for zips, zh:) hashes, and reads and
// writes .terraform.lock.hcl in the exact form Terraform writes it. It
// selects and hashes packages without installing them (providers lock),
// and writes a packed mirror with the network mirror protocol's index
// files (providers mirror). It
// also decides under which registry host, Terraform's or OpenTofu's, a
// working directory records a provider whose source names none
// (RegistryHosts), and keeps the API tokens of credentials.tfrc.json that
// rig login gets (from a host's login services, checked against its
// tokens API) and rig logout removes (credentialsfile.go).
//
// Sources sit behind the Source interface; the installer handles what they
// return by its PackageKind. Network requests go through Client, which tests give
// a loopback server's certificate and a backoff that does not sleep
// (package registrytest is such a server).
//
// It imports internal/addrs, internal/diag, internal/parallel, hcl,
// golang.org/x/mod and github.com/ProtonMail/go-crypto/openpgp.
package getproviders
