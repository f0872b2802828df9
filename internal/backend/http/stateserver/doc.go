// Package stateserver owns a state server for tests: the REST protocol of
// Terraform's and OpenTofu's http backend (GET, POST or PUT, DELETE, LOCK,
// UNLOCK on the state's path, or GitLab's POST and DELETE on PATH/lock; a
// lock table keyed by path, ?ID= checked on updates, Content-MD5 checked),
// as GitLab and OpenTofu's own test servers implement it, served on loopback over plain HTTP or TLS with a client
// certificate, optionally behind basic authentication, with failures that a
// test can inject and a record of the requests it received.
//
// It imports only the standard library.
package stateserver
