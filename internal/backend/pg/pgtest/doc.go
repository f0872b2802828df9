// Package pgtest owns finding a PostgreSQL server for tests: the one named
// by RIG_TEST_PG_CONN (which .ci/run starts), or else a throwaway cluster it
// starts itself on loopback from the initdb and postgres binaries it finds
// (PATH, /usr/lib/postgresql/*/bin), or else it skips the test with a
// one-line reason. Each test process gets a database of its own.
//
// It imports only the standard library and pgx.
package pgtest
