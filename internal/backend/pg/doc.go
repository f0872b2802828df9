// Package pg owns the PostgreSQL backend: each workspace's state as one row
// of a table laid out as Terraform's and OpenTofu's pg backends lay it out,
// so that a state written by one is read by the others, and a workspace lock
// that excludes rig, Terraform and OpenTofu alike.
//
// Layout. The schema (default terraform_remote_state) holds the table
// states (id bigint from the sequence public.global_states_id_seq, name
// text unique — the workspace —, data text — the state JSON) and its
// unique index states_by_name. rig adds two tables of its own beside it,
// named after the states table: states_rig_locks, holding the LockInfo of
// each lock rig holds, so that a contender can say who holds it (Terraform
// and OpenTofu record no lock information in the database); and
// states_rig_journal (name text, seq bigserial, lineage text, serial
// bigint, record bytea; primary key (name, seq)), each workspace's journal:
// a header row (record NULL) naming the snapshot it belongs to, then one
// row per record. skip_table_creation leaves them to someone else too;
// without the journal table, Stores keep no journal (Store.Journal is nil).
//
// Locking. A workspace's lock is the session-level advisory lock
// pg_try_advisory_lock(id) on its row id, as Terraform and OpenTofu take
// it. Creating a row is guarded by the creation lock they use (-1 for
// Terraform; a negative key derived from the schema name for OpenTofu),
// which rig takes only for the moment it inserts a row, and checks, as they
// do, before it takes a row lock. A lock on a workspace with no row inserts a
// placeholder row (data NULL) that Unlock removes again if nothing was
// written. Because the lock belongs to a database session, a Store opens a
// connection of its own in Lock and owns it until Unlock: every read and
// write of a locked Store goes through that connection. PostgreSQL releases
// the lock when the session ends, so a holder that dies frees it.
//
// Durability. Write replaces the row and deletes the workspace's journal
// rows in one transaction: a new snapshot and the end of the journal it
// makes obsolete commit together. Journal.Begin (a transaction deleting the
// rows and inserting the header) and Append (one INSERT) are durable once
// committed. A connection error (including the server ending the session)
// is retried with backoff (Config.Retry), for Write and for changes to the
// journal: a locked Store reconnects, takes its lock again and checks that
// the stored state is still the one it last wrote before it writes, so that
// a lock lost with the connection cannot hide another writer's update. (An
// Append whose lost attempt had committed inserts its record twice; records
// are idempotent.) When that fails the error is returned and the caller
// keeps the state elsewhere (rig writes errored.tfstate).
//
// It imports only the standard library, pgx, internal/backend and
// internal/parallel.
package pg
