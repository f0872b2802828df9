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
