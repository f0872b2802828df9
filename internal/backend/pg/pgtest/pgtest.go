package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env names the variable holding the connection string of a server the
// tests may create databases on (as a superuser).
const Env = "RIG_TEST_PG_CONN"

var (
	serverOnce sync.Once
	serverConn string // connection string of the server's postgres database
	skipReason string // why there is no server, when serverConn is ""
	serverErr  error  // a server was named or started but does not work

	dbOnce sync.Once
	dbConn string
	dbErr  error
)

// Server returns the connection string of a server's maintenance database,
// starting a cluster on the first call if needed. It skips t when there is
// no PostgreSQL to run, and fails it when one was named but cannot be used.
func Server(t testing.TB) string {
	t.Helper()
	serverOnce.Do(func() {
		if v := os.Getenv(Env); v != "" {
			serverConn = v
			serverErr = ping(v)
			return
		}
		serverConn, skipReason, serverErr = start()
	})
	switch {
	case serverErr != nil:
		t.Fatalf("PostgreSQL: %v", serverErr)
	case serverConn == "":
		t.Skipf("PostgreSQL not available: %s", skipReason)
	}
	return serverConn
}

// ConnString returns the connection string of this test process's own
// database, created on the first call.
func ConnString(t testing.TB) string {
	t.Helper()
	server := Server(t)
	dbOnce.Do(func() { dbConn, dbErr = createDatabase(server) })
	if dbErr != nil {
		t.Fatalf("PostgreSQL: %v", dbErr)
	}
	return dbConn
}

// NewDatabase creates a database for one test and returns its connection
// string, for tests that do things to a whole database.
func NewDatabase(t testing.TB) string {
	t.Helper()
	conn, err := createDatabase(Server(t))
	if err != nil {
		t.Fatalf("PostgreSQL: %v", err)
	}
	return conn
}

// Schema returns a new schema name for one test (the schema is not created).
func Schema(t testing.TB) string {
	name := strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "_"))
	if len(name) > 40 {
		name = name[len(name)-40:]
	}
	return "rt_" + strings.Trim(name, "_") + "_" + randomHex(4)
}

// Exec runs SQL statements on the database of a connection string, failing t on error.
func Exec(t testing.TB, connStr string, stmts ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connStr)
	if err != nil {
		t.Fatalf("connecting to PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// WithDatabase returns connStr naming another database.
func WithDatabase(connStr, db string) string {
	if u, err := url.Parse(connStr); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		u.Path = "/" + db
		return u.String()
	}
	return connStr + " dbname=" + db
}

func createDatabase(server string) (string, error) {
	name := "rigtest_" + randomHex(6)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("creating a database: %w", err)
	}
	return WithDatabase(server, name), nil
}

func ping(connStr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connStr)
	if err != nil {
		return fmt.Errorf("%s=%s: %w", Env, connStr, err)
	}
	return conn.Close(ctx)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// binDir returns the directory holding initdb and postgres: the one on
// PATH, else the newest /usr/lib/postgresql/*/bin.
func binDir() string {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if isExec(filepath.Join(dir, "initdb")) && isExec(filepath.Join(dir, "postgres")) {
			if real, err := filepath.EvalSymlinks(filepath.Join(dir, "initdb")); err == nil {
				return filepath.Dir(real)
			}
			return dir
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, dir := range dirs {
		if isExec(filepath.Join(dir, "initdb")) && isExec(filepath.Join(dir, "postgres")) {
			return dir
		}
	}
	return ""
}

func versionOf(binDir string) int {
	var v int
	fmt.Sscanf(filepath.Base(filepath.Dir(binDir)), "%d", &v)
	return v
}

func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// WithParam returns connStr with a connection parameter set.
func WithParam(connStr, key, value string) string {
	if u, err := url.Parse(connStr); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return connStr + " " + key + "=" + value
}
