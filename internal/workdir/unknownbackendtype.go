package workdir

import (
	"fmt"
	"slices"
)

// openTofuBackendTypes are the backend types OpenTofu 1.12 has that rig
// does not implement: a configuration naming one is valid, and refused
// only as something rig cannot do yet.
var openTofuBackendTypes = []string{"azurerm", "cloud", "consul", "cos", "gcs", "inmem", "kubernetes", "oss", "remote"}

// removedBackendTypes are backend types OpenTofu and Terraform dropped,
// with what to use instead when there is something.
var removedBackendTypes = map[string]string{
	"artifactory": "",
	"azure":       `Use "azurerm", its current name.`,
	"etcd":        "",
	"etcdv3":      "",
	"manta":       "",
	"swift":       "",
}

// unknownBackendType returns the summary and detail of the error for a
// backend block of a type rig does not implement: "Invalid backend type"
// for one OpenTofu does not know either (a misspelling, or one removed long
// ago), as OpenTofu reports it; "Unsupported backend type" for an OpenTofu
// backend rig lacks.
func unknownBackendType(typ string) (summary, detail string) {
	if slices.Contains(openTofuBackendTypes, typ) {
		return "Unsupported backend type", fmt.Sprintf("rig does not support the %q backend yet; it supports \"local\", \"pg\", \"http\" and \"s3\".", typ)
	}
	if instead, ok := removedBackendTypes[typ]; ok {
		detail = fmt.Sprintf("The %q backend was removed in OpenTofu 1.3 and Terraform 1.3.", typ)
		if instead != "" {
			detail = fmt.Sprintf("The %q backend name was removed. %s", typ, instead)
		}
		return "Invalid backend type", detail
	}
	return "Invalid backend type", fmt.Sprintf("There is no backend type named %q.", typ)
}
