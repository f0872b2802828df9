// Package providertest owns an in-process fake provider for tests of
// operation ordering, failures and interrupts: its test_thing and test_other
// resource types record every apply with start and end sequence numbers,
// keep the set of live objects and enforce unique names among them (the
// reason create_before_destroy exists), and can be told to fail, fail with a
// partial result, sleep or block on a given operation. Objects made live
// with AddLive can be imported by id, and two functions (upper, join)
// record their calls, and so do the opening and closing of its ephemeral
// test_token. ReadResource and PlanResourceChange record how many of
// them run at once (InFlight), and can be held until a number of them do.
//
// It imports internal/addrs, internal/diag, internal/provider and the cty libraries.
package providertest
