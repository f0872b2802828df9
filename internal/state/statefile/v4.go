package statefile

import "encoding/json"

// The types below are the version-4 file as Terraform and OpenTofu define
// it, used for reading only: Marshal writes the same layout by hand, and
// write.go lists the field order and omission rules it follows.

type fileV4 struct {
	Version          json.RawMessage     `json:"version"`
	TerraformVersion string              `json:"terraform_version"`
	Serial           uint64              `json:"serial"`
	Lineage          string              `json:"lineage"`
	Outputs          map[string]outputV4 `json:"outputs"`
	Resources        []resourceV4        `json:"resources"`
	CheckResults     json.RawMessage     `json:"check_results"`
}

type outputV4 struct {
	Value     json.RawMessage `json:"value"`
	Type      json.RawMessage `json:"type"`
	Sensitive bool            `json:"sensitive"`
}

type resourceV4 struct {
	Module string `json:"module"`
	Mode   string `json:"mode"`
	Type   string `json:"type"`
	Name   string `json:"name"`
	// Each ("list" or "map") was written by Terraform 0.12 only; it is
	// read and ignored, as Terraform and OpenTofu do.
	Each      string       `json:"each"`
	Provider  string       `json:"provider"`
	Instances []instanceV4 `json:"instances"`
}

type instanceV4 struct {
	IndexKey json.RawMessage `json:"index_key"`
	Status   string          `json:"status"`
	Deposed  string          `json:"deposed"`

	SchemaVersion       uint64            `json:"schema_version"`
	Attributes          json.RawMessage   `json:"attributes"`
	AttributesFlat      map[string]string `json:"attributes_flat"`
	SensitiveAttributes json.RawMessage   `json:"sensitive_attributes"`

	// Written by Terraform 1.12 and later.
	IdentitySchemaVersion *uint64         `json:"identity_schema_version"`
	Identity              json.RawMessage `json:"identity"`

	Private []byte `json:"private"`
	// Dependencies is a list of resource addresses, decoded by the
	// decoder, which shares the lists that are the same.
	Dependencies        json.RawMessage `json:"dependencies"`
	CreateBeforeDestroy bool            `json:"create_before_destroy"`
	// SkipDestroy is lifecycle.destroy = false, written by OpenTofu 1.12
	// and later (and rig).
	SkipDestroy bool `json:"skip_destroy"`
	// PreventDestroy is rig's record of the prevent_destroy that protects
	// the object: where it was set. Other tools ignore it and drop it when
	// they rewrite the state.
	PreventDestroy string `json:"rig_prevent_destroy"`

	// Provider is the provider configuration instance of the object,
	// written by OpenTofu 1.9 and later (and rig) instead of the resource's
	// provider when the configuration uses for_each:
	// provider["registry.opentofu.org/hashicorp/aws"].by_region["eu"].
	Provider string `json:"provider"`
}
