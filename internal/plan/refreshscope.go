package plan

import (
	"time"

	"github.com/rig-iac/rig/internal/addrs"
)

// NotRefreshed is an object a -refresh=changed plan planned as recorded.
type NotRefreshed struct {
	Addr addrs.ObjectAddr
	// LastRefreshed is when rig last read it back.
	LastRefreshed time.Time
}

// OldestNotRefreshed returns the earliest last refresh among the objects
// the plan did not refresh; false when it refreshed every one.
func (p *Plan) OldestNotRefreshed() (time.Time, bool) {
	if len(p.NotRefreshed) == 0 {
		return time.Time{}, false
	}
	oldest := p.NotRefreshed[0].LastRefreshed
	for _, n := range p.NotRefreshed[1:] {
		if n.LastRefreshed.Before(oldest) {
			oldest = n.LastRefreshed
		}
	}
	return oldest, true
}
