package pg

import (
	"fmt"
	"strconv"
	"time"
)

// Defaults, as Terraform and OpenTofu name them.
const (
	DefaultSchemaName = "terraform_remote_state"
	DefaultTableName  = "states"
	DefaultIndexName  = "states_by_name"
	// DefaultApplicationName is the application_name rig's sessions carry
	// unless the connection string sets one.
	DefaultApplicationName = "rig"
)

// Config configures a pg backend: the settings of a `backend "pg"` block.
// The zero value of a string field means its default.
type Config struct {
	// ConnStr is a libpq connection string or postgres:// URL (conn_str).
	// "" connects as libpq's PG* environment variables say.
	ConnStr string
	// SchemaName is the schema holding the tables (schema_name).
	SchemaName string
	// TableName is the table of states (table_name; OpenTofu only).
	TableName string
	// IndexName is the unique index on the table's name column (index_name;
	// OpenTofu only).
	IndexName string
	// SkipSchemaCreation, SkipTableCreation and SkipIndexCreation leave the
	// creation of the schema, the tables (and sequence), and the index to
	// someone else.
	SkipSchemaCreation bool
	SkipTableCreation  bool
	SkipIndexCreation  bool
	// Retry bounds the retries of an operation whose connection failed; the
	// zero value means DefaultRetry.
	Retry Retry
}

// Retry is a bounded exponential backoff: Attempts tries in all, waiting
// Base, then twice as long each time up to Max, between them.
type Retry struct {
	Attempts int
	Base     time.Duration
	Max      time.Duration
}

// DefaultRetry tries 6 times over about 10 seconds.
var DefaultRetry = Retry{Attempts: 6, Base: 300 * time.Millisecond, Max: 4 * time.Second}

// EnvVars maps each setting to the environment variable that gives its
// default, as Terraform and OpenTofu read them.
var EnvVars = map[string]string{
	"conn_str":             "PG_CONN_STR",
	"schema_name":          "PG_SCHEMA_NAME",
	"table_name":           "PG_TABLE_NAME",
	"index_name":           "PG_INDEX_NAME",
	"skip_schema_creation": "PG_SKIP_SCHEMA_CREATION",
	"skip_table_creation":  "PG_SKIP_TABLE_CREATION",
	"skip_index_creation":  "PG_SKIP_INDEX_CREATION",
}

// OpenTofuOnly are the settings OpenTofu's pg schema has and Terraform's
// lacks.
var OpenTofuOnly = []string{"table_name", "index_name"}

// BoolSettings are the settings whose values are booleans; the others are
// strings.
var BoolSettings = map[string]bool{
	"skip_schema_creation": true,
	"skip_table_creation":  true,
	"skip_index_creation":  true,
}

// ConfigFromSettings builds a Config from the settings given (by name, as
// strings: "true"/"false" for booleans), with each missing setting taken
// from its environment variable (looked up with getenv) or its default.
// It fails on an unknown setting or a boolean that does not parse.
func ConfigFromSettings(settings map[string]string, getenv func(string) string) (Config, error) {
	var c Config
	for name := range settings {
		if _, ok := EnvVars[name]; !ok {
			return c, fmt.Errorf("the pg backend has no setting named %q", name)
		}
	}
	get := func(name string) (string, string) {
		if v, ok := settings[name]; ok {
			return v, name
		}
		return getenv(EnvVars[name]), EnvVars[name]
	}
	str := func(name, def string) string {
		if v, _ := get(name); v != "" {
			return v
		}
		return def
	}
	var err error
	boolean := func(name string) bool {
		v, from := get(name)
		if v == "" {
			return false
		}
		b, perr := strconv.ParseBool(v)
		if perr != nil && err == nil {
			err = fmt.Errorf("%s: %q is not a boolean", from, v)
		}
		return b
	}
	c.ConnStr = str("conn_str", "")
	c.SchemaName = str("schema_name", DefaultSchemaName)
	c.TableName = str("table_name", DefaultTableName)
	c.IndexName = str("index_name", DefaultIndexName)
	c.SkipSchemaCreation = boolean("skip_schema_creation")
	c.SkipTableCreation = boolean("skip_table_creation")
	c.SkipIndexCreation = boolean("skip_index_creation")
	return c, err
}

func (c Config) withDefaults() Config {
	if c.SchemaName == "" {
		c.SchemaName = DefaultSchemaName
	}
	if c.TableName == "" {
		c.TableName = DefaultTableName
	}
	if c.IndexName == "" {
		c.IndexName = DefaultIndexName
	}
	if c.Retry.Attempts <= 0 {
		c.Retry = DefaultRetry
	}
	return c
}
