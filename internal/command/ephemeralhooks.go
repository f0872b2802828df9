package command

import (
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/ephemeral"
)

// The multi-hooks forward the opening and closing of ephemeral resources
// to those of their hooks that observe them.

func (hs multiRefreshHooks) PreOpen(addr addrs.AbsResourceInstance) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PreOpen(addr)
		}
	}
}

func (hs multiRefreshHooks) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PostOpen(addr, elapsed, failed)
		}
	}
}

func (hs multiRefreshHooks) PreClose(addr addrs.AbsResourceInstance) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PreClose(addr)
		}
	}
}

func (hs multiRefreshHooks) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PostClose(addr, elapsed, failed)
		}
	}
}

func (hs multiHooks) PreOpen(addr addrs.AbsResourceInstance) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PreOpen(addr)
		}
	}
}

func (hs multiHooks) PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PostOpen(addr, elapsed, failed)
		}
	}
}

func (hs multiHooks) PreClose(addr addrs.AbsResourceInstance) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PreClose(addr)
		}
	}
}

func (hs multiHooks) PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool) {
	for _, h := range hs {
		if e, ok := h.(ephemeral.Hooks); ok {
			e.PostClose(addr, elapsed, failed)
		}
	}
}
