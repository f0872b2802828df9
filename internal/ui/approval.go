package ui

import (
	"fmt"
	"io"
)

// Approval is what apply and destroy ask before they change anything,
// in OpenTofu's words.
type Approval struct {
	// Destroy is a destroy's question; Targeted, one limited by -target
	// or -exclude; RefreshOnly, a refresh-only run's.
	Destroy, Targeted, RefreshOnly bool
}

// Question returns the question and the explanation below it.
func (a Approval) Question() (question, explanation string) {
	switch {
	case a.Destroy && a.Targeted:
		return "Do you really want to destroy?", "rig will destroy the resources shown above.\nThere is no undo. Only 'yes' will be accepted to confirm."
	case a.Destroy:
		return "Do you really want to destroy all resources?", "rig will destroy all your managed infrastructure, as shown above.\nThere is no undo. Only 'yes' will be accepted to confirm."
	case a.RefreshOnly:
		return "Would you like to update the rig state to reflect these detected changes?", "rig will write these changes to the state without modifying any real infrastructure.\nThere is no undo. Only 'yes' will be accepted to confirm."
	}
	return "Do you want to perform these actions?", "rig will perform the actions described above.\nOnly 'yes' will be accepted to approve."
}

// Cancelled says the answer was not yes.
func (a Approval) Cancelled(w io.Writer) {
	if a.Destroy {
		fmt.Fprintf(w, "\nDestroy cancelled.\n")
		return
	}
	fmt.Fprintf(w, "\nApply cancelled.\n")
}
