package corelog

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
)

// Level is how much the log records: a level and those above it.
type Level uint8

// The levels, from the most detailed; Off records nothing.
const (
	Trace Level = iota
	Debug
	Info
	Warn
	Error
	Off
)

// String is the level's name as TF_LOG spells it.
func (l Level) String() string {
	switch l {
	case Trace:
		return "TRACE"
	case Debug:
		return "DEBUG"
	case Info:
		return "INFO"
	case Warn:
		return "WARN"
	case Error:
		return "ERROR"
	}
	return "OFF"
}

// ValidLevels are the values TF_LOG accepts (in any case), as Terraform and
// OpenTofu list them, JSON aside: JSON is TRACE written as JSON lines.
var ValidLevels = []string{"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF"}

// Settings say what the core log records and where.
type Settings struct {
	// Level is the least severe level recorded; Off disables the log.
	Level Level
	// JSON writes each entry as one JSON object a line.
	JSON bool
	// Path is the file the log is appended to; "" means standard error.
	Path string
	// Invalid is the level asked for when it is none of ValidLevels or
	// JSON; Level is then Trace, as Terraform and OpenTofu default to.
	Invalid string
}

// FromEnv reads the settings from the environment as Terraform and
// OpenTofu do: the level from TF_LOG, or TF_LOG_CORE when TF_LOG is unset
// (TF_LOG_PROVIDER concerns provider plugins only), the file from
// TF_LOG_PATH.
func FromEnv(getenv func(string) string) Settings {
	s := Settings{Level: Off, Path: getenv("TF_LOG_PATH")}
	name := strings.ToUpper(strings.TrimSpace(getenv("TF_LOG")))
	if name == "" {
		name = strings.ToUpper(strings.TrimSpace(getenv("TF_LOG_CORE")))
	}
	switch name {
	case "":
		return s
	case "JSON":
		s.Level, s.JSON = Trace, true
		return s
	}
	for i, v := range ValidLevels {
		if v == name {
			s.Level = Level(i)
			return s
		}
	}
	s.Level, s.Invalid = Trace, name
	return s
}

// Logger writes the core log. Its methods are safe for concurrent use, and
// each entry is one write to the output (so that processes appending to
// the same file never interleave within a line). A nil *Logger records
// nothing: code logs without checking whether logging is on.
type Logger struct {
	h     hclog.Logger
	level Level
	file  *os.File // the TF_LOG_PATH file, closed by Close; nil for stderr
}

// New returns the logger settings ask for: nil when the level is Off;
// writing to the file Path names (created 0600 if missing, then appended
// to), else to stderr. An error opening the file is returned with a
// logger writing to stderr instead, so that a log never stops a run.
func New(s Settings, stderr io.Writer) (*Logger, error) {
	if s.Level >= Off {
		return nil, nil
	}
	out := stderr
	var file *os.File
	var err error
	if s.Path != "" {
		file, err = os.OpenFile(s.Path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err == nil {
			out = file
		} else {
			err = fmt.Errorf("opening log file %s: %w", s.Path, err)
		}
	}
	return newLogger(s, out, file), err
}

func newLogger(s Settings, out io.Writer, file *os.File) *Logger {
	h := hclog.New(&hclog.LoggerOptions{
		Level:      hclogLevel(s.Level),
		Output:     out,
		JSONFormat: s.JSON,
	})
	return &Logger{h: h, level: s.Level, file: file}
}

func hclogLevel(l Level) hclog.Level {
	switch l {
	case Trace:
		return hclog.Trace
	case Debug:
		return hclog.Debug
	case Info:
		return hclog.Info
	case Warn:
		return hclog.Warn
	case Error:
		return hclog.Error
	}
	return hclog.Off
}

// Close closes the log file, if the log has one. The logger must not be
// used afterwards.
func (l *Logger) Close() error {
	if l == nil || l.file == nil {
		return nil
	}
	return l.file.Close()
}

// Enabled reports whether entries at level are recorded; callers use it
// to skip gathering what only a detailed log shows.
func (l *Logger) Enabled(level Level) bool {
	return l != nil && level >= l.level && level < Off
}

// Log records msg with its attributes at level.
func (l *Logger) Log(level Level, msg string, attrs ...Attr) {
	if !l.Enabled(level) {
		return
	}
	args := make([]any, 0, 2*len(attrs))
	for _, a := range attrs {
		args = append(args, a.key, a.value)
	}
	l.h.Log(hclogLevel(level), msg, args...)
}

// Trace records msg at level Trace.
func (l *Logger) Trace(msg string, attrs ...Attr) { l.Log(Trace, msg, attrs...) }

// Debug records msg at level Debug.
func (l *Logger) Debug(msg string, attrs ...Attr) { l.Log(Debug, msg, attrs...) }

// Info records msg at level Info.
func (l *Logger) Info(msg string, attrs ...Attr) { l.Log(Info, msg, attrs...) }

// Warn records msg at level Warn.
func (l *Logger) Warn(msg string, attrs ...Attr) { l.Log(Warn, msg, attrs...) }

// Error records msg at level Error.
func (l *Logger) Error(msg string, attrs ...Attr) { l.Log(Error, msg, attrs...) }

// Attr is one named attribute of an entry. Its constructors say which
// kinds of values an entry may carry: none of them takes a configuration
// or state value.
type Attr struct {
	key   string
	value any
}

// String is a textual attribute: a name, an address, a path, a message of
// rig's own.
func String(key, value string) Attr { return Attr{key, value} }

// Strings is a list of names, addresses or arguments.
func Strings(key string, values []string) Attr {
	return Attr{key, append([]string(nil), values...)}
}

// Int is a count or a size.
func Int(key string, value int) Attr { return Attr{key, value} }

// Bool is a flag.
func Bool(key string, value bool) Attr { return Attr{key, value} }

// Duration is an elapsed time, written as Go formats durations ("1.5s").
func Duration(key string, d time.Duration) Attr { return Attr{key, d.String()} }

// Err is the failure of an operation of rig's own (reading a file, a
// request): key "error". Provider diagnostics, which may quote values,
// are not logged.
func Err(err error) Attr {
	if err == nil {
		return Attr{"error", ""}
	}
	return Attr{"error", err.Error()}
}
