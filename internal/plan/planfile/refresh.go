package planfile

import (
	"fmt"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
)

// refreshedJSON is an object the plan read back, and why.
type refreshedJSON struct {
	Addr          string     `json:"addr"`
	Deposed       string     `json:"deposed,omitempty"`
	Cause         string     `json:"cause"`
	LastRefreshed *time.Time `json:"last_refreshed,omitempty"`
	Dependency    string     `json:"dependency,omitempty"`
}

// notRefreshedJSON is an object a -refresh=changed plan planned as recorded.
type notRefreshedJSON struct {
	Addr          string    `json:"addr"`
	Deposed       string    `json:"deposed,omitempty"`
	LastRefreshed time.Time `json:"last_refreshed"`
}

// encodeRefresh writes into fj how p read recorded objects back.
func encodeRefresh(p *plan.Plan, fj *fileJSON) {
	if p.Refresh != plan.RefreshAll {
		fj.Refresh = p.Refresh.String()
	}
	if p.RefreshMaxAge > 0 {
		fj.RefreshMaxAge = p.RefreshMaxAge.String()
	}
	for _, r := range p.Refreshed {
		rj := refreshedJSON{Addr: r.Addr.Instance.String(), Deposed: string(r.Addr.Deposed), Cause: r.Cause.String()}
		if !r.LastRefreshed.IsZero() {
			at := r.LastRefreshed.UTC()
			rj.LastRefreshed = &at
		}
		if r.Dependency != (addrs.AbsResource{}) {
			rj.Dependency = r.Dependency.String()
		}
		fj.Refreshed = append(fj.Refreshed, rj)
	}
	for _, n := range p.NotRefreshed {
		fj.NotRefreshed = append(fj.NotRefreshed, notRefreshedJSON{Addr: n.Addr.Instance.String(), Deposed: string(n.Addr.Deposed), LastRefreshed: n.LastRefreshed.UTC()})
	}
}

// decodeRefresh reads from fj how the plan read recorded objects back.
func decodeRefresh(fj *fileJSON, p *plan.Plan) error {
	var err error
	if p.Refresh, err = plan.ParseRefreshMode(fj.Refresh); err != nil {
		return err
	}
	if fj.RefreshMaxAge != "" {
		if p.RefreshMaxAge, err = time.ParseDuration(fj.RefreshMaxAge); err != nil {
			return fmt.Errorf("refresh max age: %w", err)
		}
	}
	objectAddr := func(addr, deposed string) (addrs.ObjectAddr, error) {
		inst, err := addrs.ParseAbsResourceInstanceStr(addr)
		if err != nil {
			return addrs.ObjectAddr{}, fmt.Errorf("refreshed object: %w", err)
		}
		return addrs.ObjectAddr{Instance: inst, Deposed: addrs.DeposedKey(deposed)}, nil
	}
	for _, rj := range fj.Refreshed {
		r := plan.Refreshed{}
		if r.Addr, err = objectAddr(rj.Addr, rj.Deposed); err != nil {
			return err
		}
		if r.Cause, err = plan.ParseRefreshCause(rj.Cause); err != nil {
			return fmt.Errorf("%s: %w", rj.Addr, err)
		}
		if rj.LastRefreshed != nil {
			r.LastRefreshed = *rj.LastRefreshed
		}
		if rj.Dependency != "" {
			if r.Dependency, err = addrs.ParseAbsResourceStr(rj.Dependency); err != nil {
				return fmt.Errorf("%s: %w", rj.Addr, err)
			}
		}
		p.Refreshed = append(p.Refreshed, r)
	}
	for _, nj := range fj.NotRefreshed {
		n := plan.NotRefreshed{LastRefreshed: nj.LastRefreshed}
		if n.Addr, err = objectAddr(nj.Addr, nj.Deposed); err != nil {
			return err
		}
		p.NotRefreshed = append(p.NotRefreshed, n)
	}
	return nil
}
