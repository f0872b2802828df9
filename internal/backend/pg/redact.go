package pg

import (
	"net/url"
	"strings"
)

// redacted is an error whose message has the connection string's password
// taken out; Unwrap gives the original error, whose message may hold it.
type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

// redact returns err with every trace of connStr's password in its message
// replaced by "xxxxx". A URL's password with an unescaped "@" is the case
// to watch: the driver then takes the part after the first "@" for the
// host name and repeats it in its messages ("lookup t@db.example: no such
// host"), so each such tail is taken out where it is followed by "@".
func redact(err error, connStr string) error {
	if err == nil {
		return nil
	}
	return &redacted{msg: redactString(err.Error(), connStr), err: err}
}

func redactString(s, connStr string) string {
	whole, tails := passwordParts(connStr)
	for _, t := range tails {
		s = strings.ReplaceAll(s, t+"@", "xxxxx@")
	}
	for _, w := range whole {
		s = strings.ReplaceAll(s, w, "xxxxx")
	}
	return s
}

// passwordParts returns the password of connStr (a postgres:// URL or
// keyword/value pairs) as written and decoded, and, for a URL, what
// follows each "@" in it; nothing when there is no password.
func passwordParts(connStr string) (whole, tails []string) {
	add := func(pw string) {
		if pw == "" {
			return
		}
		whole = append(whole, pw)
		if dec, err := url.PathUnescape(pw); err == nil && dec != pw {
			whole = append(whole, dec)
		}
	}
	if _, rest, ok := strings.Cut(connStr, "://"); ok {
		at := strings.LastIndex(rest, "@")
		if at < 0 {
			return nil, nil
		}
		_, pw, ok := strings.Cut(rest[:at], ":")
		if !ok {
			return nil, nil
		}
		add(pw)
		for i := strings.IndexByte(pw, '@'); i >= 0; i = strings.IndexByte(pw, '@') {
			pw = pw[i+1:]
			if pw != "" {
				tails = append(tails, pw)
			}
		}
		return whole, tails
	}
	// keyword/value: password=secret or password='se cret'
	for s := connStr; ; {
		i := strings.Index(s, "password")
		if i < 0 {
			return whole, nil
		}
		s = strings.TrimLeft(s[i+len("password"):], " \t")
		if !strings.HasPrefix(s, "=") {
			continue
		}
		s = strings.TrimLeft(s[1:], " \t")
		var pw string
		if strings.HasPrefix(s, "'") {
			end := strings.Index(s[1:], "'")
			if end < 0 {
				pw = s[1:]
			} else {
				pw = s[1 : end+1]
			}
		} else {
			pw, _, _ = strings.Cut(s, " ")
		}
		if pw != "" {
			whole = append(whole, pw, strings.ReplaceAll(pw, `\'`, `'`))
		}
	}
}
