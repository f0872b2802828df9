package command

import "testing"

// import into a module the configuration does not declare is OpenTofu's
// "Import to non-existent module".
func TestImportIntoUndeclaredModule(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {}\n"})
	r := rig(t, dir, "import", "-no-color", "module.x.terraform_data.a", "id")
	want := "\nError: Import to non-existent module\n\nmodule.x is not defined in the configuration. Please add configuration for\nthis module before importing into it.\n\n"
	if r.code != 1 || r.stderr != want {
		t.Errorf("import into module.x: exit %d\n%q\nwant\n%q", r.code, r.stderr, want)
	}
}
