package proctest

import (
	"os"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest/cli"
)

func TestMain(m *testing.M) { os.Exit(cli.Main(m)) }
