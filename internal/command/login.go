package command

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/ui"
)

// defaultLoginHost is the host `login` and `logout` use when given none,
// as in Terraform and OpenTofu.
const defaultLoginHost = "app.terraform.io"

// runLogin is `rig login [HOST]`: it asks for an API token for HOST, which
// must offer Terraform's login or tokens API (login.v1 or tfe.v2 in its
// service discovery document), checks it where the host can tell who it
// belongs to, and stores it in credentials.tfrc.json. rig opens no web
// browser: the token is made on the host's web pages and pasted at the
// prompt, which does not echo it.
func runLogin(m *Meta, args []string) int {
	fs := m.flagSet("login")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	host, code, ok := m.loginHost(fs)
	if !ok {
		return code
	}
	if !m.Input {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Login is an interactive command",
			"The \"rig login\" command uses interactive prompts to obtain and record credentials, so it can't be run with input disabled.\n\nTo configure credentials in a non-interactive context, write existing credentials directly to a CLI configuration file, or set a TF_TOKEN_ environment variable.")})
		return 1
	}
	ctx := context.Background()
	cli, ds := m.cliConfig()
	ds = ds.Errors() // the CLI configuration's warnings were shown already
	client := cli.Client()
	tfeRaw, hasTFE, more := client.LoginServices(ctx, host)
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if _, manual := cli.Credentials[getproviders.NormalizeHost(host)]; manual {
		m.showDiagnostics(ds.Append(diag.Errorf("Credentials for "+host+" are manually configured",
			"The \"rig login\" command cannot log in because credentials for this host are already configured in a CLI configuration file.\n\nTo log in, first revoke the existing credentials and remove that block from the CLI configuration.")))
		return 1
	}
	file, err := getproviders.CredentialsFilePath()
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to find the credentials file", "%s", err)))
		return 1
	}
	view := ui.LoginView{W: m.Out, Color: m.Color}
	view.Intro(host, file)
	if !m.confirm("Do you want to proceed?", "Only 'yes' will be accepted to confirm.") {
		m.showDiagnostics(ds.Append(diag.Errorf("Login cancelled", "Login process cancelled because it was not confirmed")))
		return 1
	}
	view.TokenPage(host, file, hasTFE)
	token, err := m.readSecret()
	fmt.Fprintln(m.Out)
	token = strings.TrimSpace(token)
	if err != nil && token == "" {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to retrieve token", "%s", err)))
		return 1
	}
	if token == "" {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to retrieve token", "No token was entered.")))
		return 1
	}
	var user string
	if hasTFE {
		var more diag.Diagnostics
		user, more = getproviders.TokenUser(ctx, client, host, tfeRaw, token)
		if ds = ds.Append(more); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		view.Retrieved(user)
	}
	if err := getproviders.StoreToken(file, host, token); err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to save API token", "The given host returned an API token, but rig failed to save it: %s.", err)))
		return 1
	}
	m.showDiagnostics(ds)
	view.Saved(host)
	return 0
}

// runLogout is `rig logout [HOST]`: it removes HOST's token from
// credentials.tfrc.json.
func runLogout(m *Meta, args []string) int {
	fs := m.flagSet("logout")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	host, code, ok := m.loginHost(fs)
	if !ok {
		return code
	}
	cli, ds := m.cliConfig()
	ds = ds.Errors() // the CLI configuration's warnings were shown already
	if _, manual := cli.Credentials[getproviders.NormalizeHost(host)]; manual {
		m.showDiagnostics(ds.Append(diag.Errorf("Credentials for "+host+" are manually configured",
			"The \"rig logout\" command cannot log out because credentials for this host are manually configured in a CLI configuration file.\n\nTo log out, revoke the existing credentials and remove that block from the CLI configuration.")))
		return 1
	}
	file, err := getproviders.CredentialsFilePath()
	if err == nil {
		var removed bool
		removed, err = getproviders.RemoveToken(file, host)
		if err == nil && !removed {
			m.showDiagnostics(ds)
			ui.LoginView{W: m.Out}.NothingStored(host)
			return 0
		}
	}
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to remove API token", "Unable to remove stored API token: %s", err)))
		return 1
	}
	m.showDiagnostics(ds)
	ui.LoginView{W: m.Out, Color: m.Color}.Removed(host, file)
	return 0
}

// loginHost returns the host login and logout are given (the default
// one when none), checked and lower-cased.
func (m *Meta) loginHost(fs *flag.FlagSet) (string, int, bool) {
	command, args := fs.Name(), fs.Args()
	switch len(args) {
	case 0:
		return defaultLoginHost, 0, true
	case 1:
	default:
		return "", m.argsError(fs, "Unexpected argument", "The "+command+" command expects exactly one argument: the host to log "+map[bool]string{true: "in to", false: "out of"}[command == "login"]+"."), false
	}
	host, ok := getproviders.ParseHost(args[0])
	if !ok {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid hostname", "The given hostname %q is not valid: a host name, optionally with a port, is expected.", args[0])})
		return "", 1, false
	}
	return host, 0, true
}

// readSecret reads one line from standard input without echoing it when
// it is a terminal.
func (m *Meta) readSecret() (string, error) {
	if f, ok := m.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		b, err := term.ReadPassword(int(f.Fd()))
		return string(b), err
	}
	return readLine(m.In)
}
