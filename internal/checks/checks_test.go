package checks_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
)

func load(t *testing.T, src string) *config.Module {
	t.Helper()
	cfg, ds := config.LoadFiles(map[string][]byte{"main.tf": []byte(src)})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return cfg
}

const src = `
variable "v" {
  default = true
}
resource "terraform_data" "a" {
  count = 2
  lifecycle {
    precondition {
      condition     = var.v
      error_message = "pre"
    }
    postcondition {
      condition     = var.v
      error_message = "post"
    }
  }
}
resource "terraform_data" "none" {
  count = 0
  lifecycle {
    precondition {
      condition     = var.v
      error_message = "never"
    }
  }
}
resource "terraform_data" "plain" {}
check "c" {
  assert {
    condition     = var.v
    error_message = "one"
  }
  assert {
    condition     = var.v
    error_message = "two"
  }
}
`

type summary struct {
	Config  string
	Status  string
	Objects map[string]string
}

func summarize(s *checks.State) []summary {
	var out []summary
	for _, r := range s.Results() {
		sm := summary{Config: r.Config.String(), Status: r.Status.String()}
		if r.Objects != nil {
			sm.Objects = map[string]string{}
			for _, o := range r.Objects {
				sm.Objects[o.Object.String()] = o.Status.String()
			}
		}
		out = append(out, sm)
	}
	return out
}

// TestResults checks how condition results combine: an object is
// unknown until all its conditions are known, an error outweighs a
// failure, which outweighs anything unknown; a resource with no instances
// passes, one whose instances are not known yet is unknown, and objects
// without conditions are not checkable.
func TestResults(t *testing.T) {
	a0 := checks.ResourceObject(addrs.AbsResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}.Instance(addrs.IntKey(0))})
	a1 := checks.ResourceObject(addrs.AbsResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}.Instance(addrs.IntKey(1))})
	none := checks.Config{Kind: checks.ResourceKind, Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "none"}}
	c := checks.NamedObject(checks.CheckKind, addrs.RootModule, "c")

	tests := []struct {
		name   string
		report func(s *checks.State)
		want   []summary
	}{
		{"nothing reported", func(s *checks.State) {}, []summary{
			{Config: "check.c", Status: "unknown"},
			{Config: "terraform_data.a", Status: "unknown"},
			{Config: "terraform_data.none", Status: "unknown"},
		}},
		{"partly known", func(s *checks.State) {
			s.Report(a0, checks.Precondition, 0, checks.Pass, "")
			s.Report(a1, checks.Precondition, 0, checks.Pass, "")
			s.Report(a1, checks.Postcondition, 0, checks.Pass, "")
			s.ExpandIn(addrs.RootModule, none, nil)
			s.Report(c, checks.Assertion, 0, checks.Pass, "")
		}, []summary{
			{Config: "check.c", Status: "unknown", Objects: map[string]string{"check.c": "unknown"}},
			{Config: "terraform_data.a", Status: "unknown", Objects: map[string]string{"terraform_data.a[0]": "unknown", "terraform_data.a[1]": "pass"}},
			{Config: "terraform_data.none", Status: "pass", Objects: map[string]string{}},
		}},
		{"error outweighs failure", func(s *checks.State) {
			s.Report(a0, checks.Precondition, 0, checks.Fail, "pre")
			s.Report(a0, checks.Postcondition, 0, checks.Error, "")
			s.Report(a1, checks.Precondition, 0, checks.Fail, "pre")
			s.Report(a1, checks.Postcondition, 0, checks.Unknown, "")
			s.Report(c, checks.Assertion, 0, checks.Pass, "")
			s.Report(c, checks.Assertion, 1, checks.Pass, "")
		}, []summary{
			{Config: "check.c", Status: "pass", Objects: map[string]string{"check.c": "pass"}},
			{Config: "terraform_data.a", Status: "error", Objects: map[string]string{"terraform_data.a[0]": "error", "terraform_data.a[1]": "fail"}},
			{Config: "terraform_data.none", Status: "unknown"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := checks.NewState(load(t, src))
			tt.report(s)
			if diff := cmp.Diff(tt.want, summarize(s)); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			// A saved plan keeps every condition's result.
			detail, err := s.MarshalDetail()
			if err != nil {
				t.Fatal(err)
			}
			back, err := checks.UnmarshalDetail(load(t, src), detail)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(summarize(s), summarize(back)); diff != "" {
				t.Errorf("after a round trip (-before +after):\n%s", diff)
			}
		})
	}
}

// TestExpandInModuleInstances: the instances of a resource in a module are
// expanded per module instance, without dropping the other instances'.
func TestExpandInModuleInstances(t *testing.T) {
	cfg := load(t, src)
	s := checks.NewState(cfg)
	res := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}
	c := checks.Config{Kind: checks.ResourceKind, Resource: res}
	x0, x1 := addrs.ModuleInstance(`module.x[0]`), addrs.ModuleInstance(`module.x[1]`)
	// The root module's resource stands in for a module's: only the
	// module instance of the objects matters here.
	obj := func(mi addrs.ModuleInstance) checks.Object {
		return checks.Object{Config: c, Module: mi}
	}
	s.ExpandIn(x0, c, []checks.Object{obj(x0)})
	s.ExpandIn(x1, c, []checks.Object{obj(x1)})
	s.ExpandIn(x0, c, []checks.Object{obj(x0)})
	var got []string
	for _, r := range s.Results() {
		if r.Config == c {
			for _, o := range r.Objects {
				got = append(got, string(o.Object.Module))
			}
		}
	}
	if diff := cmp.Diff([]string{string(x0), string(x1)}, got); diff != "" {
		t.Errorf("instances (-want +got):\n%s", diff)
	}
}

// TestStateJSON checks the state file's form of a failed check: its
// kind, addresses, statuses and failure message.
func TestStateJSON(t *testing.T) {
	s := checks.NewState(load(t, `
variable "v" {
  default = true
}
check "c" {
  assert {
    condition     = !var.v
    error_message = "broken"
  }
}
`))
	s.Report(checks.NamedObject(checks.CheckKind, addrs.RootModule, "c"), checks.Assertion, 0, checks.Fail, "broken")
	var got any
	if err := json.Unmarshal(s.StateJSON(), &got); err != nil {
		t.Fatal(err)
	}
	var want any
	_ = json.Unmarshal([]byte(`[{"object_kind":"check","config_addr":"check.c","status":"fail","objects":[{"object_addr":"check.c","status":"fail","failure_messages":["broken"]}]}]`), &want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("check_results (-want +got):\n%s", diff)
	}
	if checks.NewState(load(t, `resource "terraform_data" "x" {}`)).StateJSON() != nil {
		t.Error("a configuration without conditions has check results, want null")
	}
}

// TestPending: an object has conditions pending while any of its
// conditions has no known result; an object the plan did not record has
// none.
func TestPending(t *testing.T) {
	a0 := checks.ResourceObject(addrs.AbsResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}.Instance(addrs.IntKey(0))})
	a1 := checks.ResourceObject(addrs.AbsResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}.Instance(addrs.IntKey(1))})
	plain := checks.ResourceObject(addrs.AbsResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "plain"}.Instance(addrs.NoKey)})
	s := checks.NewState(load(t, src))
	if s.Pending(a0) {
		t.Error("an object not recorded is pending")
	}
	s.Report(a0, checks.Precondition, 0, checks.Pass, "")
	if !s.Pending(a0) {
		t.Error("an object with its postcondition unknown is not pending")
	}
	s.Report(a0, checks.Postcondition, 0, checks.Fail, "post")
	s.Report(a1, checks.Precondition, 0, checks.Unknown, "")
	s.Report(a1, checks.Postcondition, 0, checks.Pass, "")
	if s.Pending(a0) || !s.Pending(a1) || s.Pending(plain) {
		t.Errorf("pending: a[0] %v (want false), a[1] %v (want true), plain %v (want false)", s.Pending(a0), s.Pending(a1), s.Pending(plain))
	}
	var none *checks.State
	if none.Pending(a0) {
		t.Error("a nil State has pending conditions")
	}
}
