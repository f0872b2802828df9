package command

import "testing"

// TestConsoleEphemeralValues prints ephemeral values as OpenTofu's console
// prints them: "(ephemeral value)" wherever one is, at any depth, beside
// "(sensitive value)"; ephemeralasnull gives them as null.
func TestConsoleEphemeralValues(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
variable "token" {
  type      = string
  ephemeral = true
  default   = "s3cr3t-token"
}
variable "password" {
  type      = string
  sensitive = true
  default   = "hunter2"
}
locals {
  both = { token = var.token, password = var.password, plain = "x" }
}
`})
	input := `var.token
length(var.token)
local.both
[var.token]
ephemeralasnull(local.both)
terraform.applying
`
	r := rigInput(t, dir, input, "console", "-no-color")
	want := `(ephemeral value)
(ephemeral value)
{
  "password" = (sensitive value)
  "plain" = "x"
  "token" = (ephemeral value)
}
[
  (ephemeral value),
]
{
  "password" = (sensitive value)
  "plain" = "x"
  "token" = tostring(null)
}
(ephemeral value)
`
	if r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("console: exit %d\nstdout:\n%s\nwant:\n%s\nstderr: %s", r.code, r.stdout, want, r.stderr)
	}
}
