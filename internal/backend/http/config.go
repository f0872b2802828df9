package http

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Defaults, as Terraform and OpenTofu have them.
const (
	DefaultUpdateMethod = "POST"
	DefaultLockMethod   = "LOCK"
	DefaultUnlockMethod = "UNLOCK"
	DefaultRetryMax     = 2
	DefaultRetryWaitMin = time.Second
	DefaultRetryWaitMax = 30 * time.Second
)

// Config configures an http backend: the settings of a `backend "http"`
// block. The zero value of a method means its default; ConfigFromSettings
// fills in the others.
type Config struct {
	// Address is the state's URL (address); http or https.
	Address string
	// UpdateMethod is the method that sends a new snapshot (update_method).
	UpdateMethod string
	// LockAddress is where locks are taken (lock_address); "" disables
	// locking.
	LockAddress string
	// LockMethod is the method that takes a lock (lock_method).
	LockMethod string
	// UnlockAddress is where locks are released (unlock_address); ""
	// makes Unlock send nothing.
	UnlockAddress string
	// UnlockMethod is the method that releases a lock (unlock_method).
	UnlockMethod string
	// Username and Password, when Username is set, authenticate every
	// request (HTTP basic authentication).
	Username string
	Password string
	// Headers are added to every request. Authorization is allowed only
	// without Username; Content-Type and Content-MD5 are reserved.
	Headers map[string]string
	// SkipCertVerification accepts any server certificate.
	SkipCertVerification bool
	// ClientCACertificatePEM is a PEM CA bundle the server's certificate
	// must chain to (client_ca_certificate_pem); "" uses the system's.
	ClientCACertificatePEM string
	// ClientCertificatePEM and ClientPrivateKeyPEM, set together, are the
	// certificate rig presents to the server (mutual TLS).
	ClientCertificatePEM string
	ClientPrivateKeyPEM  string
	// RetryMax is how many times a failed request is sent again.
	RetryMax int
	// RetryWaitMin and RetryWaitMax bound the wait before each retry: it
	// starts at RetryWaitMin and doubles up to RetryWaitMax.
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	// Sleep waits d before a retry, returning early with ctx's error when
	// ctx ends. nil waits on a timer; tests replace it so as not to sleep.
	Sleep func(ctx context.Context, d time.Duration) error
}

// EnvVars maps each setting to the environment variable that gives its
// default, as Terraform and OpenTofu read them; "" for a setting without
// one.
var EnvVars = map[string]string{
	"address":                   "TF_HTTP_ADDRESS",
	"update_method":             "TF_HTTP_UPDATE_METHOD",
	"lock_address":              "TF_HTTP_LOCK_ADDRESS",
	"unlock_address":            "TF_HTTP_UNLOCK_ADDRESS",
	"lock_method":               "TF_HTTP_LOCK_METHOD",
	"unlock_method":             "TF_HTTP_UNLOCK_METHOD",
	"username":                  "TF_HTTP_USERNAME",
	"password":                  "TF_HTTP_PASSWORD",
	"skip_cert_verification":    "",
	"retry_max":                 "TF_HTTP_RETRY_MAX",
	"retry_wait_min":            "TF_HTTP_RETRY_WAIT_MIN",
	"retry_wait_max":            "TF_HTTP_RETRY_WAIT_MAX",
	"client_ca_certificate_pem": "TF_HTTP_CLIENT_CA_CERTIFICATE_PEM",
	"client_certificate_pem":    "TF_HTTP_CLIENT_CERTIFICATE_PEM",
	"client_private_key_pem":    "TF_HTTP_CLIENT_PRIVATE_KEY_PEM",
	"headers":                   "",
}

// The settings that are not strings. A boolean's value is "true" or
// "false", a number's its decimal text, and the headers map's its JSON
// object text ({"NAME":"VALUE",…}).
var (
	BoolSettings   = map[string]bool{"skip_cert_verification": true}
	NumberSettings = map[string]bool{"retry_max": true, "retry_wait_min": true, "retry_wait_max": true}
	MapSettings    = map[string]bool{"headers": true}
)

// OpenTofuOnly are the settings OpenTofu's http schema has and
// Terraform's lacks.
var OpenTofuOnly = []string{"headers"}

// SensitiveSettings are the settings whose values must never be shown.
var SensitiveSettings = map[string]bool{"password": true, "client_private_key_pem": true}

// ConfigFromSettings builds a Config from the settings given (by name, as
// strings: see BoolSettings), with each missing setting taken from its
// environment variable (looked up with getenv) or its default. It fails on
// an unknown setting or a value that does not parse; Validate checks the
// rest.
func ConfigFromSettings(settings map[string]string, getenv func(string) string) (Config, error) {
	for name := range settings {
		if _, ok := EnvVars[name]; !ok {
			return Config{}, fmt.Errorf("the http backend has no setting named %q", name)
		}
	}
	get := func(name string) (value, from string) {
		if v, ok := settings[name]; ok {
			return v, name
		}
		if env := EnvVars[name]; env != "" {
			return getenv(env), env
		}
		return "", name
	}
	str := func(name, def string) string {
		if v, _ := get(name); v != "" {
			return v
		}
		return def
	}
	var errs []string
	whole := func(name string, def int) int {
		v, from := get(name)
		if v == "" {
			return def
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %q is not a whole number", from, v))
		}
		return n
	}
	c := Config{
		Address:                str("address", ""),
		UpdateMethod:           str("update_method", DefaultUpdateMethod),
		LockAddress:            str("lock_address", ""),
		LockMethod:             str("lock_method", DefaultLockMethod),
		UnlockAddress:          str("unlock_address", ""),
		UnlockMethod:           str("unlock_method", DefaultUnlockMethod),
		Username:               str("username", ""),
		Password:               str("password", ""),
		ClientCACertificatePEM: str("client_ca_certificate_pem", ""),
		ClientCertificatePEM:   str("client_certificate_pem", ""),
		ClientPrivateKeyPEM:    str("client_private_key_pem", ""),
		RetryMax:               whole("retry_max", DefaultRetryMax),
		RetryWaitMin:           time.Duration(whole("retry_wait_min", int(DefaultRetryWaitMin/time.Second))) * time.Second,
		RetryWaitMax:           time.Duration(whole("retry_wait_max", int(DefaultRetryWaitMax/time.Second))) * time.Second,
	}
	if v, ok := settings["skip_cert_verification"]; ok && v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			errs = append(errs, fmt.Sprintf("skip_cert_verification: %q is not a boolean", v))
		}
		c.SkipCertVerification = b
	}
	if v, ok := settings["headers"]; ok && v != "" {
		if err := json.Unmarshal([]byte(v), &c.Headers); err != nil {
			errs = append(errs, "headers: not a map of strings")
		}
	}
	if len(errs) > 0 {
		return c, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return c, nil
}

var (
	headerName    = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	asciiPrintish = regexp.MustCompile(`^[[:ascii:]]*$`)
)

// Validate reports the first problem of a Config, with the words
// Terraform and OpenTofu use: a missing or non-http(s) address, an
// invalid or reserved header, half a client certificate.
func (c Config) Validate() error {
	if c.Address == "" {
		return fmt.Errorf(`the http backend needs an address: set "address" in the backend block, or TF_HTTP_ADDRESS`)
	}
	for _, a := range []struct{ name, value string }{{"address", c.Address}, {"lockAddress", c.LockAddress}, {"unlockAddress", c.UnlockAddress}} {
		if a.value == "" {
			continue
		}
		if _, err := parseURL(a.name, a.value); err != nil {
			return err
		}
	}
	for name, value := range c.Headers {
		if !headerName.MatchString(name) {
			return fmt.Errorf("headers %q name must not be empty and only contain A-Za-z0-9-_ characters", name)
		}
		if strings.TrimSpace(value) == "" || !asciiPrintish.MatchString(value) {
			return fmt.Errorf("headers %q value must not be empty and only contain ascii characters", name)
		}
		switch strings.ToLower(name) {
		case "authorization":
			if c.Username != "" {
				return fmt.Errorf("headers %q cannot be set when providing username", name)
			}
		case "content-type", "content-md5":
			return fmt.Errorf("headers %q is reserved", name)
		}
	}
	if c.ClientCertificatePEM != "" && c.ClientPrivateKeyPEM == "" {
		return fmt.Errorf("client_certificate_pem is set but client_private_key_pem is not")
	}
	if c.ClientPrivateKeyPEM != "" && c.ClientCertificatePEM == "" {
		return fmt.Errorf("client_private_key_pem is set but client_certificate_pem is not")
	}
	if c.RetryMax < 0 || c.RetryWaitMin < 0 || c.RetryWaitMax < 0 {
		return fmt.Errorf("retry_max, retry_wait_min and retry_wait_max must not be negative")
	}
	return nil
}
