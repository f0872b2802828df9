package command

// separatedDiagnostics are the commands that follow each diagnostic with
// a blank line, as OpenTofu 1.12's do (the others, plan and apply among
// them, do not).
var separatedDiagnostics = map[string]bool{
	"console": true, "fmt": true, "force-unlock": true, "get": true, "graph": true, "import": true,
	"init": true, "login": true, "logout": true, "providers": true, "providers lock": true,
	"providers mirror": true, "state mv": true, "state pull": true, "state push": true,
	"state replace-provider": true, "state rm": true, "state show": true, "taint": true,
	"untaint": true, "version": true, "workspace delete": true, "workspace list": true,
	"workspace new": true, "workspace select": true, "workspace show": true,
}
