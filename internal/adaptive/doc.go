// Package adaptive owns adaptive concurrency limits: how many calls to one
// remote API (a provider configuration's cloud account) may run at once,
// found from what the calls experience rather than set in advance. A
// Limiter grows its limit while latency holds and cuts it when latency
// rises or a throttling error appears; Throttling recognises throttling
// errors in the text of provider diagnostics. The clock is injected, so
// every behaviour is tested on a fake one.
//
// The algorithm (additive increase, multiplicative decrease on latency and
// throttling, with a start that doubles) is described on Limiter.
//
// It imports no rig package.
package adaptive
