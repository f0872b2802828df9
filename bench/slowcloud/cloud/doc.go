// Package cloud is slowcloud's API: a Server holding objects behind HTTP on
// loopback, whose every API call waits a configured latency with jitter and
// takes a token from one bucket shared by all its clients (a call that
// finds the bucket empty is answered, after a delay, with a throttling
// error), with out-of-band drift and counters of every call; and the
// Client a provider calls it with, which retries throttled calls with
// capped exponential backoff and full jitter, as cloud SDKs do, and gives
// up after a number of retries.
//
// It imports the standard library only.
package cloud
