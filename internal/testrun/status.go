package testrun

// Status is the outcome of a run block, a file or a suite. The order
// matters: merging two statuses keeps the later in this order, so that a
// file with a failed run has failed.
type Status uint8

const (
	// Pending has not run (a cancelled suite leaves runs pending).
	Pending Status = iota
	// Skip was not run: an earlier run of its file errored, or the suite
	// was interrupted.
	Skip
	// Pass ran and every assertion held.
	Pass
	// Fail ran and an assertion did not hold.
	Fail
	// Error could not run to the end: an error in its configuration, its
	// plan or its apply, or an expected failure that did not happen.
	Error
)

// String returns the status as the JSON report writes it.
func (s Status) String() string {
	switch s {
	case Skip:
		return "skip"
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	case Error:
		return "error"
	}
	return "pending"
}

// Merge returns the status of a whole made of s and next: the later of
// the two in the order above.
func (s Status) Merge(next Status) Status {
	if next > s {
		return next
	}
	return s
}
