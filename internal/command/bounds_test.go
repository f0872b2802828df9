package command

import (
	"regexp"
	"strings"
	"testing"
)

// TestInstanceLimit checks that count and for_each stop at max_instances
// (100000 unless rig.hcl says otherwise) for resources and module calls,
// with an error at the argument, rather than panicking or exhausting memory.
func TestInstanceLimit(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		wantCode int
		want     []string // substrings of stderr
	}{
		{
			name: "count of 1e18",
			files: map[string]string{"main.tf": `resource "terraform_data" "a" {
  count = 1e18
}
`},
			wantCode: 1,
			want: []string{"Error: Too many instances", "on main.tf line 2", `The "count" argument makes 1000000000000000000 instances, more than the 100000`,
				"max_instances = N in rig.hcl"},
		},
		{
			name: "count of 1e7",
			files: map[string]string{"main.tf": `resource "terraform_data" "a" {
  count = 1e7
}
`},
			wantCode: 1,
			want:     []string{"Error: Too many instances", "on main.tf line 2", "makes 10000000 instances"},
		},
		{
			name: "count beyond any integer",
			files: map[string]string{"main.tf": `resource "terraform_data" "a" {
  count = pow(10, 40)
}
`},
			wantCode: 1,
			want:     []string{"Error: Too many instances", "on main.tf line 2", `The "count" argument makes more instances, more than the 100000`},
		},
		{
			name: "module call count",
			files: map[string]string{
				"main.tf": `module "m" {
  source = "./m"
  count  = 100001
}
`,
				"m/main.tf": "",
			},
			wantCode: 1,
			want:     []string{"Error: Too many instances", "on main.tf line 3"},
		},
		{
			name: "for_each over max_instances",
			files: map[string]string{
				"rig.hcl": "max_instances = 3\n",
				"main.tf": `resource "terraform_data" "a" {
  for_each = toset(["a", "b", "c", "d"])
}
`},
			wantCode: 1,
			want:     []string{"Error: Too many instances", "on main.tf line 2", `The "for_each" argument makes 4 instances, more than the 3`},
		},
		{
			name: "module call for_each over max_instances",
			files: map[string]string{
				"rig.hcl": "max_instances = 1\n",
				"main.tf": `module "m" {
  source   = "./m"
  for_each = { a = 1, b = 2 }
}
`,
				"m/main.tf": "",
			},
			wantCode: 1,
			want:     []string{"Error: Too many instances", "on main.tf line 3", "makes 2 instances, more than the 1"},
		},
		{
			name: "count within max_instances",
			files: map[string]string{
				"rig.hcl": "max_instances = 4\n",
				"main.tf": `resource "terraform_data" "a" {
  count = 4
}
`},
			want: []string{},
		},
		{
			name: "invalid max_instances",
			files: map[string]string{
				"rig.hcl": "max_instances = 0\n",
				"main.tf": "",
			},
			wantCode: 1,
			want:     []string{"Error: Invalid max_instances", "on rig.hcl line 1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, tt.files)
			if _, ok := tt.files["m/main.tf"]; ok {
				mustRig(t, dir, "init", "-no-color")
			}
			r := rig(t, dir, "plan", "-no-color", "-input=false")
			if r.code != tt.wantCode {
				t.Fatalf("plan: exit %d, want %d\n%s%s", r.code, tt.wantCode, r.stdout, r.stderr)
			}
			for _, w := range tt.want {
				if !containsText(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if tt.wantCode == 0 && !strings.Contains(r.stdout, "4 to add") {
				t.Errorf("plan:\n%s", r.stdout)
			}
		})
	}
}

// TestHugeNumberLiteral checks that a number literal with a huge exponent
// is an error at the literal rather than a plan that spends minutes
// writing out its digits.
func TestHugeNumberLiteral(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `locals {
  x = 1e55555555
}

output "o" {
  value = local.x
}
`})
	for _, cmd := range []string{"validate", "plan"} {
		r := rig(t, dir, cmd, "-no-color")
		if r.code != 1 || !containsText(r.stderr, "Error: Number literal out of range") || !containsText(r.stderr, "on main.tf line 2, in locals:") {
			t.Errorf("%s: exit %d, want 1 with Number literal out of range on main.tf line 2:\n%s%s", cmd, r.code, r.stdout, r.stderr)
		}
	}
}

// TestHugeNumberInputs: a huge number given any other way than a native
// literal — a .tf.json configuration, -var, a .tfvars or .tfvars.json file
// — is an error naming where it came from, rather than a plan that spends
// minutes writing out its digits.
func TestHugeNumberInputs(t *testing.T) {
	const withVar = `variable "n" {
  type = number
}

output "o" {
  value = var.n
}
`
	tests := []struct {
		name  string
		files map[string]string
		args  []string
		want  []string
	}{
		{"json configuration", map[string]string{"main.tf.json": `{
  "locals": {
    "x": 1e55555555
  },
  "output": {"o": {"value": "${local.x}"}}
}
`}, nil, []string{"Error: Number literal out of range", "on main.tf.json line 3"}},
		{"json configuration, tiny", map[string]string{"main.tf.json": `{"locals": {"x": 0.` + strings.Repeat("0", 1200) + `1}}`}, nil,
			[]string{"Error: Number literal out of range", "on main.tf.json line 1"}},
		{"-var", map[string]string{"main.tf": withVar}, []string{"-var", "n=1e55555555"},
			[]string{"Error: Invalid value for input variable", "var.n from -var holds a number out of range"}},
		{".tfvars", map[string]string{"main.tf": withVar, "big.tfvars": "n = 1e55555555\n"}, []string{"-var-file=big.tfvars"},
			[]string{"Error: Invalid value for input variable", "holds a number out of range"}},
		{".tfvars.json, in a collection", map[string]string{"main.tf": `variable "n" {
  type = map(list(number))
}
`, "big.tfvars.json": `{"n": {"a": [1, -2e9999]}}`}, []string{"-var-file=big.tfvars.json"},
			[]string{"Error: Invalid value for input variable", `holds a number out of range (at ["a"][1])`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, tt.files)
			r := rig(t, dir, append([]string{"plan", "-no-color", "-input=false"}, tt.args...)...)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
			}
			for _, want := range tt.want {
				if !containsText(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
		})
	}
	// Numbers within the bound still work.
	dir := workDir(t, map[string]string{"main.tf": withVar})
	if r := rig(t, dir, "plan", "-no-color", "-input=false", "-var", "n=1e300"); r.code != 0 {
		t.Errorf("plan with n=1e300: exit %d\n%s", r.code, r.stderr)
	}
}

// TestBinaryConfigFile checks that a binary .tf file neither sends its
// bytes to the terminal (control characters are shown escaped) nor floods
// it: at most 20 diagnostics of a file are shown, then how many more.
func TestBinaryConfigFile(t *testing.T) {
	var bin strings.Builder
	for i := range 8192 {
		bin.WriteByte(byte(i*7 + i/256))
	}
	dir := workDir(t, map[string]string{
		"main.tf":  bin.String(),
		"other.tf": "resource \"terraform_data\" \"a\" {\n  input = \x1b[2J\x1b]0;owned\x07\n}\n",
	})
	for _, color := range []bool{false, true} {
		args := []string{"validate"}
		if !color {
			args = append(args, "-no-color")
		}
		r := rig(t, dir, args...)
		if r.code != 1 {
			t.Fatalf("validate: exit %d, want 1\n%s", r.code, r.stderr)
		}
		// Colors aside, no control character but tab and newline reaches
		// the terminal.
		plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(r.stderr, "")
		for i, c := range []byte(plain) {
			if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
				t.Fatalf("color %v: stderr holds control byte %#x at %d:\n%q", color, c, i, plain[max(0, i-80):min(len(plain), i+80)])
			}
		}
		if !containsText(plain, `on other.tf line 2, in resource "terraform_data" "a":`) || !strings.Contains(plain, `input = \x1b[2J\x1b]0;owned\x07`) {
			t.Errorf("color %v: the snippet of other.tf is not shown escaped:\n%s", color, plain)
		}
		if got := strings.Count(plain, "on main.tf line "); got != 20 {
			t.Errorf("color %v: %d diagnostics of main.tf shown, want 20", color, got)
		}
		if !regexp.MustCompile(`Error: \d+ more errors in main.tf`).MatchString(plain) {
			t.Errorf("color %v: no count of the diagnostics not shown:\n%s", color, plain)
		}
	}
}

// TestPGConnectionErrorHidesPassword checks that a PG_CONN_STR whose
// password holds an unescaped "@" does not show up in the error of a
// server that cannot be reached.
func TestPGConnectionErrorHidesPassword(t *testing.T) {
	t.Setenv("PG_CONN_STR", "postgres://rig:Sup3r@Secret@127.0.0.1:1/db")
	dir := workDir(t, map[string]string{"main.tf": `terraform {
  backend "pg" {}
}
`})
	r := rig(t, dir, "init", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error") {
		t.Fatalf("init: exit %d, want 1 with an error\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, part := range []string{"Sup3r", "Secret"} {
		if strings.Contains(r.stdout+r.stderr, part) {
			t.Errorf("the output shows %q of the password:\n%s%s", part, r.stdout, r.stderr)
		}
	}
}
