package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
)

func TestActionBlocks(t *testing.T) {
	m, ds := LoadFiles(map[string][]byte{"main.tf": []byte(`
action "aws_lambda_invoke" "notify" {
  count    = 2
  provider = aws.west
  config {
    function_name = "notify"
  }
}
resource "terraform_data" "r" {
  count = 2
  lifecycle {
    action_trigger {
      events     = [before_create, after_update]
      condition  = count.index == 0
      actions    = [action.aws_lambda_invoke.notify[count.index]]
      on_failure = continue
    }
  }
}
`)})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	addr := addrs.Action{Type: "aws_lambda_invoke", Name: "notify"}
	a := m.Actions[addr]
	if a == nil || a.Count == nil || a.Config == nil || a.Provider == nil || a.Provider.Alias != "west" {
		t.Fatalf("action: %+v", a)
	}
	r := m.ManagedResources[addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "r"}]
	if len(r.Managed.ActionTriggers) != 1 {
		t.Fatalf("triggers: %+v", r.Managed.ActionTriggers)
	}
	at := r.Managed.ActionTriggers[0]
	if diff := cmp.Diff([]ActionEvent{BeforeCreate, AfterUpdate}, at.Events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if len(at.Actions) != 1 || at.Actions[0].Action != addr || at.OnFailure != OnFailureContinue || at.Condition == nil {
		t.Errorf("trigger: %+v", at)
	}
	if got := addr.String(); got != "action.aws_lambda_invoke.notify" {
		t.Errorf("String() = %q", got)
	}
}

// TestActionDiagnostics: what Terraform 1.14 refuses in action blocks and
// action triggers, with its words.
func TestActionDiagnostics(t *testing.T) {
	cases := map[string]struct {
		src  string
		want []string
	}{
		"count and for_each": {`
action "x_y" "a" {
  count    = 1
  for_each = {}
}`, []string{`Invalid combination of "count" and "for_each"`}},
		"two config blocks": {`
action "x_y" "a" {
  config {}
  config {}
}`, []string{"Duplicate config block"}},
		"duplicate action": {`
action "x_y" "a" {}
action "x_y" "a" {}`, []string{`Duplicate action "x_y" configuration`}},
		"bad event and duplicate event": {`
action "x_y" "a" {}
resource "terraform_data" "r" {
  lifecycle {
    action_trigger {
      events  = [before_create, before_create, on_tuesday]
      actions = [action.x_y.a]
    }
  }
}`, []string{`Duplicate "before_create" event`, `Invalid "event" value on_tuesday`}},
		"bad on_failure": {`
action "x_y" "a" {}
resource "terraform_data" "r" {
  lifecycle {
    action_trigger {
      events     = [after_create]
      actions    = [action.x_y.a]
      on_failure = retry
    }
  }
}`, []string{`Invalid "on_failure" keyword`}},
		"not an action": {`
resource "terraform_data" "r" {
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [terraform_data.r]
    }
  }
}`, []string{"Invalid action argument inside action_triggers", "No actions specified"}},
		"another module's action": {`
resource "terraform_data" "r" {
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [module.m.a]
    }
  }
}`, []string{"Invalid reference to action outside this module", "No actions specified"}},
		"two actions in one entry": {`
action "x_y" "a" {}
action "x_y" "b" {}
resource "terraform_data" "r" {
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.x_y.a == null ? action.x_y.a : action.x_y.b]
    }
  }
}`, []string{"Invalid action expression", "No actions specified"}},
		"undeclared action": {`
resource "terraform_data" "r" {
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.x_y.missing]
    }
  }
}`, []string{"Reference to undeclared action"}},
		"data source": {`
action "x_y" "a" {}
data "terraform_remote_state" "d" {
  backend = "local"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.x_y.a]
    }
  }
}`, []string{"Invalid data resource lifecycle argument"}},
		"override of an undeclared action": {"", []string{"Missing base action declaration to override"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			files := map[string][]byte{"main.tf": []byte(c.src)}
			if c.src == "" {
				files["override.tf"] = []byte(`action "x_y" "a" {}`)
			}
			_, ds := LoadFiles(files)
			var got []string
			for _, d := range ds {
				got = append(got, d.Summary)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
