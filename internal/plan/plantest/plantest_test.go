package plantest

import (
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
)

func TestParse(t *testing.T) {
	p, err := Parse(`
# a comment
module.m.terraform_data.a[0]  create-then-delete cbd deps=terraform_data.b
terraform_data.b              delete recorded=terraform_data.c
terraform_data.d              update inherited=module.m.terraform_data.a deps=terraform_data.b
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 3 {
		t.Fatalf("%d changes, want 3", len(p.Changes))
	}
	a, b, d := p.Changes[0], p.Changes[1], p.Changes[2]
	if a.Addr.String() != "module.m.terraform_data.a[0]" || a.Action != plan.CreateThenDelete || !a.CreateBeforeDestroy {
		t.Errorf("first change = %s %s cbd=%v", a.Addr, a.Action, a.CreateBeforeDestroy)
	}
	if obj := p.PriorState.Object(addrs.ObjectAddr{Instance: a.Addr}); obj == nil || len(obj.Dependencies) != 1 || obj.Dependencies[0].String() != "terraform_data.b" {
		t.Errorf("recorded dependencies of a replaced object default to its dependencies: %+v", obj)
	}
	if b.Action != plan.Delete || len(b.Dependencies) != 1 || b.Dependencies[0].String() != "terraform_data.c" {
		t.Errorf("a delete's dependencies are the recorded ones: %v", b.Dependencies)
	}
	if d.CBDInheritedFrom.String() != "module.m.terraform_data.a" {
		t.Errorf("inherited from %s", d.CBDInheritedFrom)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"terraform_data.a", "line 1: no action"},
		{"terraform_data.a explode", `line 1: unknown action "explode"`},
		{"\nterraform_data.a create color=red", `line 2: unknown option "color=red"`},
		{"not an address create", "line 1: invalid resource instance address"},
		{"terraform_data.a create deps=???", "line 1: "},
	}
	for _, tt := range tests {
		if _, err := Parse(tt.src); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", tt.src, err, tt.want)
		}
	}
}

func TestExample(t *testing.T) {
	p, err := Parse(Example)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 15 {
		t.Errorf("%d changes, want 15", len(p.Changes))
	}
}

func TestLarge(t *testing.T) {
	p, err := Parse(Large(1000))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 1000 {
		t.Fatalf("%d changes, want 1000", len(p.Changes))
	}
	last := p.Changes[999]
	if last.Addr.String() != "module.m0.terraform_data.r9[99]" || len(last.Dependencies) != 1 || last.Dependencies[0].String() != "module.m0.terraform_data.r8" {
		t.Errorf("last change %s depends on %v", last.Addr, last.Dependencies)
	}
}
