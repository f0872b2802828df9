package version

// Rig is rig's own version, printed by `rig version` and recorded in the
// state lock information of the runs it holds.
const Rig = "0.1.0"

// Terraform is the version of OpenTofu and Terraform rig is a drop-in for
// (OpenTofu 1.10's latest release): the terraform_version written into
// state files and reported to providers and in JSON output. OpenTofu and
// Terraform read states written by any version up to their own, so this is
// never newer than the releases rig's states must be readable by.
const Terraform = "1.10.6"

// TerraformNewest is the newest Terraform minor release whose language
// additions rig accepts; a .tf file's required_version may ask for any
// version from Terraform up to it.
const TerraformNewest = "1.16"

// OpenTofu is the OpenTofu release whose language rig implements: a
// module's declarations of OpenTofu compatibility (a language block's
// compatible_with, OpenTofu 1.12, and required_version in a .tofu file)
// are checked against it. It is reported nowhere else.
const OpenTofu = "1.12.6"
