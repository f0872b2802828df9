package command

// refusesInputFlag are the commands that have no -input option, as in
// OpenTofu 1.12 and both Terraform releases ("flag provided but not
// defined: -input"): those that never ask for a variable's value. Where
// one of the tools takes it (Terraform 1.11's logout and workspace show),
// rig takes it too, and rig's own commands take it.
var refusesInputFlag = map[string]bool{
	"validate": true, "test": true, "fmt": true, "force-unlock": true, "get": true, "graph": true,
	"metadata functions": true, "output": true, "show": true, "modules": true, "query": true,
	"providers": true, "providers lock": true, "providers mirror": true, "providers schema": true,
	"state list": true, "state mv": true, "state pull": true, "state push": true,
	"state replace-provider": true, "state rm": true, "state show": true, "state identities": true,
	"taint": true, "untaint": true, "version": true,
	"workspace list": true, "workspace new": true, "workspace select": true, "workspace delete": true,
}
