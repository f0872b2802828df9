//go:build unix

package killtest

import (
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

func withUmask(t *testing.T, mask int) { commandtest.WithUmask(t, mask) }
