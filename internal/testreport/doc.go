// Package testreport owns the reports of rig test: the human report
// (OpenTofu's, with each file's and run's time added), the machine-readable
// JSON messages OpenTofu and Terraform write (-json, -json-into), and the
// JUnit XML file in the layout Terraform writes (-junit-xml). Each is a
// testrun.Reporter; Multi sends the results to several, and StateSaver
// saves what a cleanup leaves behind before they report it.
//
// It imports internal/config, internal/diag, internal/state,
// internal/testrun and internal/ui.
package testreport
