package testreport

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/testrun"
	"github.com/rig-iac/rig/internal/ui"
)

// junitCase is one <testcase>, its children and attributes in the order
// Terraform writes them.
type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Stderr    *junitMessage `xml:"system-err,omitempty"`
	Time      float64       `xml:"time,attr,omitempty"`
	Timestamp string        `xml:"timestamp,attr,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr,omitempty"`
	Body    string `xml:",cdata"`
}

// WriteJUnit writes the suite's results as JUnit XML in the layout
// Terraform's -junit-xml writes: a <testsuite> per file (in name order)
// with its counts, a <testcase> per run with its time and start, a
// <failure> listing the failed assertions, an <error> with the errors, a
// <skipped> saying why, and the other diagnostics as <system-err>.
// sources holds the files the diagnostics point into; stopped says the
// suite was interrupted.
func WriteJUnit(w io.Writer, s *testrun.SuiteResult, sources map[string][]byte, stopped bool) error {
	var buf bytes.Buffer
	enc := xml.NewEncoder(&buf)
	if err := enc.EncodeToken(xml.ProcInst{Target: "xml", Inst: []byte(`version="1.0" encoding="UTF-8"`)}); err != nil {
		return err
	}
	enc.Indent("", "  ")
	suites := xml.StartElement{Name: xml.Name{Local: "testsuites"}}
	if err := enc.EncodeToken(suites); err != nil {
		return err
	}
	for _, f := range s.Files {
		src := mergeSources(sources, f.Sources)
		var skipped, failures, errs int
		for _, r := range f.Runs {
			switch r.Status {
			case testrun.Skip:
				skipped++
			case testrun.Fail:
				failures++
			case testrun.Error:
				errs++
			}
		}
		suite := xml.StartElement{Name: xml.Name{Local: "testsuite"}, Attr: []xml.Attr{
			{Name: xml.Name{Local: "name"}, Value: f.File.Name},
			{Name: xml.Name{Local: "tests"}, Value: strconv.Itoa(len(f.Runs))},
			{Name: xml.Name{Local: "skipped"}, Value: strconv.Itoa(skipped)},
			{Name: xml.Name{Local: "failures"}, Value: strconv.Itoa(failures)},
			{Name: xml.Name{Local: "errors"}, Value: strconv.Itoa(errs)},
		}}
		if err := enc.EncodeToken(suite); err != nil {
			return err
		}
		fileErrors := f.Status == testrun.Error && f.Diagnostics.HasErrors()
		for i, r := range f.Runs {
			tc := junitCase{Name: r.Run.Name, Classname: f.File.Name}
			if !r.Start.IsZero() {
				tc.Time = r.Elapsed.Seconds()
				tc.Timestamp = r.Start.UTC().Format(time.RFC3339)
			}
			var failed diag.Diagnostics
			for _, d := range r.Diagnostics {
				if isAssertionFailure(d) {
					failed = append(failed, d)
				}
			}
			switch r.Status {
			case testrun.Skip:
				tc.Skipped = skipDetails(i, f, stopped, fileErrors)
			case testrun.Fail:
				tc.Failure = &junitMessage{Message: failureMessage(failed, len(r.Run.Asserts)), Body: plainDiagnostics(failed, src)}
			case testrun.Error:
				tc.Error = &junitMessage{Message: "Encountered an error", Body: plainDiagnostics(r.Diagnostics.Errors(), src)}
			}
			var others diag.Diagnostics
			for _, d := range r.Diagnostics {
				switch {
				case r.Status == testrun.Error && d.Severity == diag.Warning:
					others = append(others, d)
				case r.Status != testrun.Error && !isAssertionFailure(d):
					others = append(others, d)
				}
			}
			if len(others) > 0 {
				tc.Stderr = &junitMessage{Body: plainDiagnostics(others, src)}
			}
			if err := enc.EncodeElement(&tc, xml.StartElement{Name: xml.Name{Local: "testcase"}}); err != nil {
				return err
			}
		}
		if fileErrors {
			if err := enc.EncodeElement(&junitMessage{Body: plainDiagnostics(f.Diagnostics, src)}, xml.StartElement{Name: xml.Name{Local: "system-err"}}); err != nil {
				return err
			}
		}
		if err := enc.EncodeToken(suite.End()); err != nil {
			return err
		}
	}
	if err := enc.EncodeToken(suites.End()); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func isAssertionFailure(d diag.Diagnostic) bool {
	return d.Severity == diag.Error && d.Summary == "Test assertion failed"
}

func failureMessage(failed diag.Diagnostics, asserts int) string {
	switch len(failed) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("%d of %d assertions failed: %s", len(failed), asserts, failed[0].Detail)
	}
	return fmt.Sprintf("%d of %d assertions failed, including: %s", len(failed), asserts, failed[0].Detail)
}

func skipDetails(i int, f *testrun.FileResult, stopped, fileErrors bool) *junitMessage {
	if stopped {
		return &junitMessage{Message: "Testcase skipped due to an interrupt",
			Body: "rig received an interrupt and stopped gracefully. This caused all remaining testcases to be skipped"}
	}
	if f.Status == testrun.Error {
		for j := i; j >= 0; j-- {
			if f.Runs[j].Status == testrun.Error {
				return &junitMessage{Message: "Testcase skipped due to a previous testcase error",
					Body: fmt.Sprintf("Previous testcase %q ended in error, which caused the remaining tests in the file to be skipped", f.Runs[j].Run.Name)}
			}
		}
		if fileErrors {
			return &junitMessage{Message: "Testcase skipped due to file-level errors"}
		}
	}
	return &junitMessage{}
}

// plainDiagnostics renders diagnostics as the plain text of the report, 80
// columns wide.
func plainDiagnostics(ds diag.Diagnostics, sources map[string][]byte) string {
	var b bytes.Buffer
	_ = ui.RenderDiagnosticsPlain(&b, ds, sources, ui.RenderOptions{Width: 80})
	return b.String()
}

// SaveJUnit writes the JUnit XML of s (WriteJUnit) into the file at path;
// the error is the file's, nil when the report could not be made.
func SaveJUnit(path string, s *testrun.SuiteResult, sources map[string][]byte, stopped bool) error {
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, s, sources, stopped); err != nil {
		return nil
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
