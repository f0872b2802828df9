package ui

import (
	"fmt"
	"io"
)

// LoginView is what rig login and rig logout tell people, in the words
// Terraform uses; the prompts themselves are the command's.
type LoginView struct {
	W     io.Writer
	Color bool
}

// loginRule separates the steps of rig login.
const loginRule = "\n---------------------------------------------------------------------------------\n\n"

// colored is colored with color on, plain without.
func (v LoginView) colored(colored, plain string) string {
	if v.Color {
		return colored
	}
	return plain
}

// Intro says what rig login is about to do, before it asks to proceed.
func (v LoginView) Intro(host, file string) {
	fmt.Fprintf(v.W, "rig will request an API token for %s, which you create on its web pages\nand paste here.\n\n", host)
	fmt.Fprintf(v.W, "If login is successful, rig will store the token in plain text in\nthe following file for use by subsequent commands:\n    %s\n", file)
}

// TokenPage says where to make the token, then asks for it: the tokens
// page of a host offering Terraform's tokens API (tfe), else the host's
// own web interface.
func (v LoginView) TokenPage(host, file string, tfe bool) {
	fmt.Fprint(v.W, loginRule)
	if tfe {
		fmt.Fprintf(v.W, "Open the following URL to access the tokens page for %s:\n    https://%s/app/settings/tokens?source=terraform-login\n\n", host, host)
	} else {
		fmt.Fprintf(v.W, "%s offers a login through a web browser (OAuth), which rig does not open.\nCreate an API token for %s with its web interface, or ask its administrators\nfor one.\n\n", host, host)
	}
	fmt.Fprint(v.W, "---------------------------------------------------------------------------------\n\n")
	fmt.Fprint(v.W, "Generate a token using your browser, and copy-paste it into this prompt.\n\n")
	fmt.Fprintf(v.W, "rig will store the token in plain text in the following file\nfor use by subsequent commands:\n    %s\n\n", file)
	fmt.Fprintf(v.W, "Token for %s:\n  Enter a value: ", host)
}

// Retrieved names the user the host says the token belongs to.
func (v LoginView) Retrieved(user string) {
	fmt.Fprint(v.W, v.colored("\nRetrieved token for user \x1b[1m"+user+"\x1b[0m\n", "\nRetrieved token for user "+user+"\n"))
}

// Saved says the token for host is saved.
func (v LoginView) Saved(host string) {
	fmt.Fprint(v.W, loginRule)
	fmt.Fprint(v.W, v.colored("\x1b[32m\x1b[1mSuccess!\x1b[0m \x1b[1mrig has obtained and saved an API token.\x1b[0m\n", "Success! rig has obtained and saved an API token.\n"))
	fmt.Fprintf(v.W, "\nThe new API token will be used for any future rig command that must make\nauthenticated requests to %s.\n", host)
}

// NothingStored says rig logout found no token for host.
func (v LoginView) NothingStored(host string) {
	fmt.Fprintf(v.W, "No credentials for %s are stored.\n\n", host)
}

// Removed says rig logout removed host's token from file.
func (v LoginView) Removed(host, file string) {
	fmt.Fprintf(v.W, "Removing the stored credentials for %s from the following file:\n    %s\n\n", host, file)
	fmt.Fprintf(v.W, "%s\n\n", v.colored("\x1b[32m\x1b[1mSuccess!\x1b[0m \x1b[1mrig has removed the stored API token for "+host+".\x1b[0m",
		"Success! rig has removed the stored API token for "+host+"."))
}
