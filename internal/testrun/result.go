package testrun

import (
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// Reporter receives the results of a suite as they become final. The
// engine calls it from one goroutine at a time, in this order: Begin; for
// each file, in name order, File and then Cleanup for each state its
// cleanup destroyed or could not destroy; Interrupted and Cancelled when
// the user interrupts (at any point after Begin); End, unless the suite was
// cancelled. The results passed are not changed afterwards.
type Reporter interface {
	// Begin announces the files and run blocks about to run.
	Begin(files []*config.TestFile)
	// File reports a file whose runs are over, before its cleanup.
	File(f *FileResult)
	// Cleanup reports the cleanup of one state of f: its diagnostics, and
	// what it left behind.
	Cleanup(f *FileResult, c *CleanupResult)
	// Interrupted says a first interrupt arrived: the runs in progress
	// finish, the others are skipped, and every file is cleaned up.
	Interrupted()
	// Cancelled says a second interrupt arrived: operations in progress
	// are cancelled and nothing more is cleaned up.
	Cancelled()
	// CancelSummary reports, for a file cancelled part-way, what its
	// states held and what its run in progress was creating.
	CancelSummary(s *CancelSummary)
	// End reports the whole suite.
	End(s *SuiteResult)
}

// SuiteResult is the outcome of a whole suite.
type SuiteResult struct {
	Status Status
	// Files are the results of every file, in name order.
	Files   []*FileResult
	Elapsed time.Duration
	// Cancelled is set when a second interrupt stopped the suite.
	Cancelled bool
}

// Count returns how many run blocks of the suite have status st (Fail
// also counts errored runs).
func (s *SuiteResult) Count(st Status) int {
	n := 0
	for _, f := range s.Files {
		for _, r := range f.Runs {
			if r.Status == st || st == Fail && r.Status == Error {
				n++
			}
		}
	}
	return n
}

// FileResult is the outcome of one test file.
type FileResult struct {
	File   *config.TestFile
	Status Status
	// Runs holds one result per run block, in file order.
	Runs []*RunResult
	// Diagnostics are the file's own, found before any run.
	Diagnostics diag.Diagnostics
	// Sources are the files the diagnostics may point into besides the
	// module under test's: the test file and the modules its runs loaded.
	Sources map[string][]byte
	Start   time.Time
	Elapsed time.Duration
	// Cleanups are the results of the file's cleanup, state by state, in
	// the order they ran.
	Cleanups []*CleanupResult
	// Cancelled is set when the suite was cancelled before the file's runs
	// were over: its results are partial, and only its CancelSummary is
	// reported.
	Cancelled bool
}

// RunResult is the outcome of one run block.
type RunResult struct {
	Run         *config.TestRun
	Status      Status
	Diagnostics diag.Diagnostics
	Start       time.Time
	Elapsed     time.Duration
	// Verbose holds what -verbose shows: the plan of a plan run, the state
	// after an apply run; nil without Options.Verbose or when the run did
	// not get that far.
	Verbose *Verbose
}

// Verbose is the plan or state a run produced, with what renders it.
type Verbose struct {
	// Plan is the run's plan; State, for an apply run, the state after it.
	Plan  *plan.Plan
	State *state.State
	// Schemas are the schemas of the providers the run used.
	Schemas map[addrs.Provider]*provider.Schemas
	Config  *config.Module
}

// CleanupResult is the destruction of one state at the end of a file.
type CleanupResult struct {
	// StateKey names the state ("" for the module under test's).
	StateKey string
	// Run is the last run that updated the state, whose configuration
	// and variables destroyed it.
	Run         *config.TestRun
	Diagnostics diag.Diagnostics
	// Left is what the state still holds after the cleanup: nil or empty
	// when everything was destroyed.
	Left *state.State
	// Skipped is set when skip_cleanup kept the state as it was.
	Skipped bool
	Elapsed time.Duration
	// SavedTo is the file Left was saved to, for the user to clean up
	// with; "" when it was not (the command that runs the suite saves it).
	SavedTo string
}

// LeftObjects returns the addresses of what the cleanup left behind, in
// address order, each with its id when it has one.
func (c *CleanupResult) LeftObjects() []LeftObject { return leftObjects(c.Left) }

// LeftObject is an object a cleanup or a cancellation left behind.
type LeftObject struct {
	Addr addrs.ObjectAddr
	// ID is the object's "id" attribute; "" when it has none.
	ID string
}

// CancelSummary is what a cancelled file may have left behind.
type CancelSummary struct {
	File *FileResult
	// States are the states of the file that held objects, by state key,
	// each with the run that last updated it.
	States []LeftState
	// Run is the run in progress when the suite was cancelled; nil when
	// none was.
	Run *config.TestRun
	// Creating are the objects Run's apply was creating.
	Creating []addrs.AbsResourceInstance
}

// LeftState is one state of a cancelled file.
type LeftState struct {
	StateKey string
	// Run is the last run that updated the state; nil when none has.
	Run     *config.TestRun
	Objects []LeftObject
}
