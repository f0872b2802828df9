package inmem

import (
	"testing"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/backendtest"
)

func TestConformance(t *testing.T) {
	backendtest.Run(t, func(*testing.T) backend.Backend { return New() })
}
