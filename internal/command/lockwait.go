package command

import "fmt"

// acquiringLockMessage is what a command says while another run holds
// the state lock, as OpenTofu says it.
const acquiringLockMessage = "Acquiring state lock. This may take a few moments..."

// sayAcquiringLock says that the command waits for the state lock
// (workdir.Options.LockWaiting): a line of the human output, and the
// state_lock_acquire message of the JSON stream when there is one.
func (m *Meta) sayAcquiringLock() {
	switch {
	case m.op != nil:
		if m.op.JSON != nil {
			m.op.JSON.Message(acquiringLockMessage, "state_lock_acquire", nil)
		}
		if m.op.Human {
			fmt.Fprintln(m.op.Out, acquiringLockMessage)
		}
	case m.stream != nil:
		m.stream.View.Message(acquiringLockMessage, "state_lock_acquire", nil)
	case m.documentOut:
		fmt.Fprintln(m.Err, acquiringLockMessage)
	default:
		fmt.Fprintln(m.Out, acquiringLockMessage)
	}
}
