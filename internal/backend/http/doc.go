// Package http owns the http backend: a workspace's state kept by a REST
// server, as Terraform's and OpenTofu's http backend keeps it, so that the
// servers built for them (GitLab's managed state, Terraform's test servers,
// small self-hosted services) serve rig unchanged.
//
// Protocol. The state is the body of a GET of the address (200 with a body;
// 204, 404 or an empty body mean no state yet). Write sends the whole
// snapshot with update_method (POST by default) to the address, with the
// Content-Type application/json and Content-MD5 headers, and with
// ?ID=LOCKID appended while the Store holds a lock; writing an empty
// snapshot sends DELETE. Locking is optional: only with a lock_address does
// Lock send lock_method (LOCK) with the LockInfo JSON as the body; 200 means
// locked, 409 or 423 that someone else holds it, the body then being the
// holder's LockInfo, which the *backend.LockError carries. Unlock sends
// unlock_method (UNLOCK) with {"ID": …} to unlock_address; without one (or
// without a lock_address) it sends nothing. Basic authentication (username, password), extra headers,
// a CA to trust, a client certificate (mutual TLS) and skipping
// verification configure every request.
//
// Workspaces. There is one state per address: only the "default" workspace
// exists, and asking for another fails with backend.ErrWorkspacesNotSupported
// as in Terraform and OpenTofu.
//
// Retries. A request that fails to connect, or is answered 429 or 5xx (but
// 501), is sent again up to retry_max times, after waits from
// retry_wait_min doubling up to retry_wait_max (a Retry-After header of a
// 429 or 503 answer is honoured within that bound). Config.Sleep does the
// waiting, so tests need not sleep.
//
// Locks held on the server outlive their holder: a process that dies
// holding one leaves it held until someone unlocks it (rig force-unlock).
// The store keeps no journal (Store.Journal is nil): every write sends a
// whole snapshot. The password is never part of an error, a path or a
// message.
//
// It imports only the standard library, internal/backend and
// internal/parallel.
package http
