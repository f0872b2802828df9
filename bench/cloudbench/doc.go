// Package cloudbench runs OpenTofu and rig side by side against slowcloud
// (bench/slowcloud), a cloud whose every call takes a latency and which
// limits the rate of calls: each tool applies N objects, plans again with
// nothing changed, plans after some objects drifted, and destroys them,
// and the benchmark reports for each step the wall time, the API calls and
// provider RPCs made, the calls refused for the rate and the throttling
// errors that outlasted the provider's retries, and the peak RSS.
// Its test runs a small smoke test of the same steps with rig alone.
//
// It imports no rig package: it builds and runs the rig command.
package cloudbench
