package cliargs

import (
	"errors"
	"fmt"
	"strings"
)

// Prefix names the variables whose words are added to the command
// line: TF_CLI_ARGS for every command, TF_CLI_ARGS_NAME for one (NAME is
// the command's full name with spaces and dashes written "_":
// TF_CLI_ARGS_state_list, TF_CLI_ARGS_force_unlock).
const Prefix = "TF_CLI_ARGS"

// EnvArgs returns args (the command name first, global options already
// taken off; isCommand says which names are commands) with the words of TF_CLI_ARGS_NAME and then those of
// TF_CLI_ARGS inserted right after the command's name, before the
// arguments given, as Terraform and OpenTofu insert them: a flag given on
// the command line comes later and so wins. notes are warnings about text
// the variables hold that was left out (after an unquoted ";", "&", "|",
// "<" or ">", which the tools stop at too).
func EnvArgs(args []string, isCommand func(name string) bool, getenv func(string) string) (out []string, notes []string, err error) {
	if len(args) == 0 {
		return args, nil, nil
	}
	name := CommandName(args, isCommand)
	if name == "help" {
		// rig help COMMAND takes no flags.
		return args, nil, nil
	}
	words := strings.Count(name, " ") + 1
	insert := func(variable string) error {
		v := getenv(variable)
		if v == "" {
			return nil
		}
		extra, ignored, err := ShellWords(v)
		if err != nil {
			return fmt.Errorf("parsing extra CLI args from %s: %w", variable, err)
		}
		if ignored != "" {
			notes = append(notes, fmt.Sprintf("%s: the text %q was ignored: an unquoted %q ends the arguments, as it does for Terraform and OpenTofu. Quote it to pass it on.", variable, ignored, ignored[:1]))
		}
		merged := make([]string, 0, len(args)+len(extra))
		merged = append(merged, args[:words]...)
		merged = append(merged, extra...)
		args = append(merged, args[words:]...)
		return nil
	}
	if err := insert(Prefix); err != nil {
		return nil, nil, err
	}
	if err := insert(EnvVariable(name)); err != nil {
		return nil, nil, err
	}
	return args, notes, nil
}

// EnvVariable is the variable of the command name's own arguments:
// TF_CLI_ARGS_ and the name with "_" for its spaces and dashes.
func EnvVariable(name string) string {
	return Prefix + "_" + strings.NewReplacer("-", "_", " ", "_").Replace(name)
}

// CommandName returns the name of the command args start with: a
// subcommand's full name ("state list", "providers schema") when the
// second argument names one (isCommand says which do), else the first
// argument.
func CommandName(args []string, isCommand func(name string) bool) string {
	name := args[0]
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") {
		if isCommand(name + " " + args[1]) {
			return name + " " + args[1]
		}
	}
	return name
}

// errInvalidArgs is a string a shell could not split into words.
var errInvalidArgs = errors.New("invalid command line string")

// ShellWords splits s into words as a POSIX shell would, without expanding
// anything, as Terraform and OpenTofu split TF_CLI_ARGS: words are
// separated by blanks; single quotes keep everything up to the next single
// quote; double quotes keep everything up to the next unescaped double
// quote; a backslash outside single quotes keeps the next character as
// it is; `…` and $(…) are kept as written, blanks included; a pair of
// quotes with nothing between them is an empty word. An unquoted ";", "&", "|", "<" or ">" ends the words:
// ignored is the text from there on. An unterminated quote, a trailing
// backslash or a parenthesis outside $(…) is an error.
func ShellWords(s string) (words []string, ignored string, err error) {
	var (
		word    strings.Builder
		inWord  bool
		escaped bool
		quote   rune // '\'', '"', '`' or ')' (inside $(…)), 0 outside
	)
	end := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	for i, r := range s {
		switch {
		case escaped:
			word.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote == '\'' || quote == '"':
			if r == quote {
				quote = 0
			} else {
				word.WriteRune(r)
			}
		case quote == '`' || quote == ')':
			word.WriteRune(r)
			if r == quote {
				quote = 0
			}
		case r == ' ' || r == '\t' || r == '\r' || r == '\n':
			end()
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '`':
			word.WriteRune(r)
			quote, inWord = '`', true
		case r == '(' && strings.HasSuffix(word.String(), "$"):
			word.WriteRune(r)
			quote = ')'
		case r == '(' || r == ')':
			return nil, "", errInvalidArgs
		case strings.ContainsRune(";&|<>", r):
			end()
			return words, s[i:], nil
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if escaped || quote != 0 {
		return nil, "", errInvalidArgs
	}
	end()
	return words, "", nil
}

// secretFlags are the flags whose values may be secrets: they are logged
// as NAME=(redacted), or KEY=(redacted) for settings.
var secretFlags = map[string]bool{"var": true, "backend-config": true}

// Logged returns args as the log shows them: the values of -var and
// -backend-config replaced (a -backend-config FILE is kept).
func Logged(args []string) []string {
	out := make([]string, len(args))
	redactNext := false
	for i, a := range args {
		switch {
		case a == "--":
			copy(out[i:], args[i:])
			return out
		case redactNext:
			out[i], redactNext = redactSetting(a), false
			continue
		}
		out[i] = a
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !secretFlags[name] {
			continue
		}
		if !hasValue {
			redactNext = true
			continue
		}
		out[i] = a[:len(a)-len(value)] + redactSetting(value)
	}
	return out
}

// redactSetting hides the value of a NAME=VALUE setting; anything else
// (a -backend-config file's path) is kept.
func redactSetting(s string) string {
	if name, _, ok := strings.Cut(s, "="); ok {
		return name + "=(redacted)"
	}
	return s
}
