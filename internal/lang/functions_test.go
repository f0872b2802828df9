package lang

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

func TestFunctions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "greet.tmpl"), []byte("Hi ${name}, ${upper(x)}!%{ for i in items } [${i}]%{ endfor }"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Scope{Data: testData(), FileDir: dir}

	str := cty.StringVal
	num := func(n int64) cty.Value { return cty.NumberIntVal(n) }
	strs := func(ss ...string) cty.Value {
		if len(ss) == 0 {
			return cty.ListValEmpty(cty.String)
		}
		vs := make([]cty.Value, len(ss))
		for i, s := range ss {
			vs[i] = cty.StringVal(s)
		}
		return cty.ListVal(vs)
	}
	tuple := func(vs ...cty.Value) cty.Value { return cty.TupleVal(vs) }

	// Each case names the function it covers; every function in the table
	// must be covered.
	tests := []struct {
		fn   string
		src  string
		want cty.Value // cty.NilVal: only check it evaluates without error
		re   string    // for non-deterministic string results
	}{
		{fn: "abs", src: `abs(-3)`, want: num(3)},
		{fn: "ceil", src: `ceil(1.2)`, want: num(2)},
		{fn: "floor", src: `floor(1.8)`, want: num(1)},
		{fn: "log", src: `log(8, 2)`, want: num(3)},
		{fn: "max", src: `max(1, 5, 3)`, want: num(5)},
		{fn: "min", src: `min(4, 2, 9)`, want: num(2)},
		{fn: "parseint", src: `parseint("ff", 16)`, want: num(255)},
		{fn: "pow", src: `pow(2, 10)`, want: num(1024)},
		{fn: "signum", src: `signum(-7)`, want: num(-1)},
		{fn: "sum", src: `sum([1, 2, 3.5])`, want: cty.NumberFloatVal(6.5)},
		{fn: "chomp", src: `chomp("x\n")`, want: str("x")},
		{fn: "endswith", src: `endswith("hello", "lo")`, want: cty.True},
		{fn: "format", src: `format("%s-%03d", "a", 7)`, want: str("a-007")},
		{fn: "formatlist", src: `formatlist("<%s>", ["a", "b"])`, want: strs("<a>", "<b>")},
		{fn: "indent", src: `indent(2, "a\nb")`, want: str("a\n  b")},
		{fn: "join", src: `join(",", ["a", "b"])`, want: str("a,b")},
		{fn: "lower", src: `lower("AbC")`, want: str("abc")},
		{fn: "regex", src: `regex("[0-9]+", "ab123c")`, want: str("123")},
		{fn: "regexall", src: `regexall("[0-9]", "a1b2")`, want: strs("1", "2")},
		{fn: "replace", src: `replace("a-b-c", "-", "+")`, want: str("a+b+c")},
		{fn: "replace", src: `replace("a1b22", "/[0-9]+/", "#")`, want: str("a#b#")},
		{fn: "split", src: `split(",", "a,b")`, want: strs("a", "b")},
		{fn: "startswith", src: `startswith("hello", "he")`, want: cty.True},
		{fn: "strcontains", src: `strcontains("hello", "ell")`, want: cty.True},
		{fn: "strrev", src: `strrev("abc")`, want: str("cba")},
		{fn: "substr", src: `substr("hello", 1, 3)`, want: str("ell")},
		{fn: "title", src: `title("hello world")`, want: str("Hello World")},
		{fn: "trim", src: `trim("xxhixx", "x")`, want: str("hi")},
		{fn: "trimprefix", src: `trimprefix("prefix-x", "prefix-")`, want: str("x")},
		{fn: "trimspace", src: `trimspace("  x  ")`, want: str("x")},
		{fn: "trimsuffix", src: `trimsuffix("x.tf", ".tf")`, want: str("x")},
		{fn: "upper", src: `upper("abc")`, want: str("ABC")},
		{fn: "templatestring", src: `templatestring("Hi $${name}!", {name = "Ann"})`, want: str("Hi Ann!")},
		{fn: "alltrue", src: `alltrue([true, true])`, want: cty.True},
		{fn: "anytrue", src: `anytrue([false, true])`, want: cty.True},
		{fn: "chunklist", src: `chunklist(["a", "b", "c"], 2)`, want: cty.ListVal([]cty.Value{strs("a", "b"), strs("c")})},
		{fn: "coalesce", src: `coalesce("", "b")`, want: str("b")},
		{fn: "coalescelist", src: `coalescelist([], ["b"])`, want: tuple(str("b"))},
		{fn: "compact", src: `compact(["a", "", "b"])`, want: strs("a", "b")},
		{fn: "concat", src: `concat(["a"], ["b"])`, want: tuple(str("a"), str("b"))},
		{fn: "contains", src: `contains(["a", "b"], "b")`, want: cty.True},
		{fn: "distinct", src: `distinct(["a", "a", "b"])`, want: strs("a", "b")},
		{fn: "element", src: `element(["a", "b"], 3)`, want: str("b")},
		{fn: "flatten", src: `flatten([["a"], [["b"]]])`, want: tuple(str("a"), str("b"))},
		{fn: "index", src: `index(["a", "b"], "b")`, want: num(1)},
		{fn: "keys", src: `keys({b = 1, a = 2})`, want: tuple(str("a"), str("b"))},
		{fn: "length", src: `length("héllo")`, want: num(5)},
		{fn: "length", src: `length({a = 1})`, want: num(1)},
		{fn: "matchkeys", src: `matchkeys(["a", "b", "c"], [1, 2, 1], [1])`, want: strs("a", "c")},
		{fn: "lookup", src: `lookup({a = "x"}, "b", "d")`, want: str("d")},
		{fn: "lookup", src: `lookup({a = "x"}, "a")`, want: str("x")},
		{fn: "merge", src: `merge({a = 1}, {b = 2})`, want: cty.ObjectVal(map[string]cty.Value{"a": num(1), "b": num(2)})},
		{fn: "one", src: `one(["x"])`, want: str("x")},
		{fn: "range", src: `range(3)`, want: cty.ListVal([]cty.Value{num(0), num(1), num(2)})},
		{fn: "reverse", src: `reverse(["a", "b"])`, want: tuple(str("b"), str("a"))},
		{fn: "setintersection", src: `setintersection(["a", "b"], ["b"])`, want: cty.SetVal([]cty.Value{str("b")})},
		{fn: "setproduct", src: `setproduct(["a"], ["b"])`, want: cty.ListVal([]cty.Value{cty.TupleVal([]cty.Value{str("a"), str("b")})})},
		{fn: "setsubtract", src: `setsubtract(["a", "b"], ["a"])`, want: cty.SetVal([]cty.Value{str("b")})},
		{fn: "setunion", src: `setunion(["a"], ["b"])`, want: cty.SetVal([]cty.Value{str("a"), str("b")})},
		{fn: "slice", src: `slice(["a", "b", "c"], 1, 2)`, want: tuple(str("b"))},
		{fn: "sort", src: `sort(["b", "a"])`, want: strs("a", "b")},
		{fn: "transpose", src: `transpose({a = ["1", "2"], b = ["2"]})`, want: cty.MapVal(map[string]cty.Value{"1": strs("a"), "2": strs("a", "b")})},
		{fn: "values", src: `values({b = 1, a = 2})`, want: tuple(num(2), num(1))},
		{fn: "zipmap", src: `zipmap(["a"], [1])`, want: cty.ObjectVal(map[string]cty.Value{"a": num(1)})},
		{fn: "base64decode", src: `base64decode("aGk=")`, want: str("hi")},
		{fn: "base64encode", src: `base64encode("hi")`, want: str("aGk=")},
		{fn: "csvdecode", src: "csvdecode(\"a,b\\n1,2\\n\")", want: cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": str("1"), "b": str("2")})})},
		{fn: "jsondecode", src: `jsondecode("{\"a\":[1]}")`, want: cty.ObjectVal(map[string]cty.Value{"a": tuple(num(1))})},
		{fn: "jsonencode", src: `jsonencode({a = [1, "x"]})`, want: str(`{"a":[1,"x"]}`)},
		{fn: "urlencode", src: `urlencode("a b&c")`, want: str("a+b%26c")},
		{fn: "urldecode", src: `urldecode("a+b%26c")`, want: str("a b&c")},
		{fn: "base64gzip", src: `base64gzip("hi")`, want: str("H4sIAAAAAAAA/8rIBAAAAP//AQAA//+sKpPYAgAAAA==")},
		{fn: "base64gunzip", src: `base64gunzip("H4sIAAAAAAAA/8rIBAAAAP//AQAA//+sKpPYAgAAAA==")`, want: str("hi")},
		{fn: "textencodebase64", src: `textencodebase64("hi", "UTF-16LE")`, want: str("aABpAA==")},
		{fn: "textdecodebase64", src: `textdecodebase64("aABpAA==", "UTF-16LE")`, want: str("hi")},
		{fn: "yamldecode", src: `yamldecode("a: 1")`, want: cty.ObjectVal(map[string]cty.Value{"a": num(1)})},
		{fn: "yamlencode", src: `yamlencode({a = "b"})`, want: str("\"a\": \"b\"\n")},
		{fn: "base64sha256", src: `base64sha256("hi")`, want: str("j0NDRmSPa5bfid2pAcUXaxCm2Dlh3TwayItZstwyeqQ=")},
		{fn: "base64sha512", src: `base64sha512("")`, want: str("z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==")},
		{fn: "md5", src: `md5("hi")`, want: str("49f68a5c8493ec2c0bf489821c21fc3b")},
		{fn: "sha1", src: `sha1("hi")`, want: str("c22b5f9178342609428d6f51b2c5af4c0bde6a42")},
		{fn: "sha256", src: `sha256("hi")`, want: str("8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4")},
		{fn: "sha512", src: `sha512("")`, want: str("cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")},
		{fn: "uuidv5", src: `uuidv5("dns", "tada")`, want: str("faa898db-9b9d-5b75-86a9-149e7bb8e3b8")},
		{fn: "bcrypt", src: `bcrypt("hi", 4)`, re: `^\$2a\$04\$[./A-Za-z0-9]{53}$`},
		{fn: "rsadecrypt", src: `can(rsadecrypt("aGk=", "x"))`, want: cty.False},
		{fn: "uuid", src: `uuid()`, re: `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`},
		{fn: "formatdate", src: `formatdate("YYYY-MM-DD", "2024-01-02T03:04:05Z")`, want: str("2024-01-02")},
		{fn: "plantimestamp", src: `plantimestamp()`, want: cty.UnknownVal(cty.String).RefineNotNull()},
		{fn: "timeadd", src: `timeadd("2024-01-02T03:04:05Z", "1h")`, want: str("2024-01-02T04:04:05Z")},
		{fn: "timecmp", src: `timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:00:00-01:00")`, want: num(0)},
		{fn: "timestamp", src: `timestamp()`, re: `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`},
		{fn: "abspath", src: `abspath("/a/b/../c")`, want: str("/a/c")},
		{fn: "basename", src: `basename("/a/b.txt")`, want: str("b.txt")},
		{fn: "dirname", src: `dirname("/a/b.txt")`, want: str("/a")},
		{fn: "file", src: `file("hello.txt")`, want: str("hello")},
		{fn: "filebase64", src: `filebase64("hello.txt")`, want: str("aGVsbG8=")},
		{fn: "fileexists", src: `fileexists("hello.txt") && !fileexists("nope.txt")`, want: cty.True},
		{fn: "filebase64sha256", src: `filebase64sha256("hello.txt")`, want: str("LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=")},
		{fn: "filebase64sha512", src: `length(filebase64sha512("hello.txt"))`, want: num(88)},
		{fn: "fileset", src: `fileset(".", "*.txt")`, want: cty.SetVal([]cty.Value{str("hello.txt")})},
		{fn: "filemd5", src: `filemd5("hello.txt")`, want: str("5d41402abc4b2a76b9719d911017c592")},
		{fn: "filesha1", src: `filesha1("hello.txt")`, want: str("aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d")},
		{fn: "filesha256", src: `filesha256("hello.txt")`, want: str("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")},
		{fn: "filesha512", src: `length(filesha512("hello.txt"))`, want: num(128)},
		{fn: "pathexpand", src: `pathexpand("/x")`, want: str("/x")},
		{fn: "templatefile", src: `templatefile("greet.tmpl", {name = "Ann", x = "y", items = [1, 2]})`, want: str("Hi Ann, Y! [1] [2]")},
		{fn: "can", src: `can(var.list[5])`, want: cty.False},
		{fn: "convert", src: `convert(["b", "a", "b"], set(string))`, want: cty.SetVal([]cty.Value{str("a"), str("b")})},
		{fn: "ephemeralasnull", src: `ephemeralasnull(["x"])`, want: tuple(str("x"))},
		{fn: "nonsensitive", src: `nonsensitive(sensitive("x"))`, want: str("x")},
		{fn: "sensitive", src: `sensitive("x")`, want: str("x").Mark(Sensitive)},
		{fn: "issensitive", src: `issensitive(sensitive("x"))`, want: cty.True},
		{fn: "tobool", src: `tobool("true")`, want: cty.True},
		{fn: "tolist", src: `tolist(["a", "b"])`, want: strs("a", "b")},
		{fn: "tomap", src: `tomap({a = "x"})`, want: cty.MapVal(map[string]cty.Value{"a": str("x")})},
		{fn: "tonumber", src: `tonumber("42")`, want: num(42)},
		{fn: "toset", src: `toset(["a", "a"])`, want: cty.SetVal([]cty.Value{str("a")})},
		{fn: "tostring", src: `tostring(5)`, want: str("5")},
		{fn: "try", src: `try(var.list[5], "fallback")`, want: str("fallback")},
		{fn: "type", src: `type(tolist(["a"]))`, want: str("list(string)")},
		{fn: "cidrcontains", src: `cidrcontains("10.0.0.0/8", "10.1.2.3")`, want: cty.True},
		{fn: "cidrhost", src: `cidrhost("10.12.112.0/20", 16)`, want: str("10.12.112.16")},
		{fn: "cidrhost", src: `cidrhost("10.0.0.0/24", -1)`, want: str("10.0.0.255")},
		{fn: "cidrnetmask", src: `cidrnetmask("172.16.0.0/12")`, want: str("255.240.0.0")},
		{fn: "cidrsubnet", src: `cidrsubnet("10.1.2.0/24", 4, 15)`, want: str("10.1.2.240/28")},
		{fn: "cidrsubnet", src: `cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`, want: str("fd00:fd12:3456:7800:a200::/72")},
		{fn: "cidrsubnets", src: `cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`, want: strs("10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20")},
	}

	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.fn] = true
		t.Run(tt.src, func(t *testing.T) {
			got, diags := s.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %v", diags.Err())
			}
			if tt.re != "" {
				if got.Type() != cty.String || !regexp.MustCompile(tt.re).MatchString(got.AsString()) {
					t.Errorf("got %#v, want match for %s", got, tt.re)
				}
				return
			}
			if !got.RawEquals(tt.want) {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
	for name := range Functions(".") {
		if strings.HasPrefix(name, coreNamespace) || name == "list" || name == "map" {
			continue // TestCoreNamespace, TestRemovedFunctions
		}
		if !covered[name] {
			t.Errorf("function %q has no test case", name)
		}
	}
}

func TestFunctionErrors(t *testing.T) {
	s := &Scope{Data: testData(), FileDir: t.TempDir()}
	tests := []struct {
		src     string
		summary string
		detail  string
	}{
		{`nosuch(1)`, "Call to unknown function", `There is no function named "nosuch".`},
		{`file("missing.txt")`, "Invalid function argument", `no file exists at "missing.txt"; this function`},
		{`index(["a"], "z")`, "Error in function call", "item not found"},
		{`tonumber("x")`, "Invalid function argument", `cannot convert "x" to number`},
		{`one(["a", "b"])`, "Invalid function argument", "must be a list, set, or tuple value with either zero or one elements"},
		{`cidrsubnet("10.0.0.0/30", 4, 0)`, "Error in function call", "insufficient address space to extend prefix of 30 by 4"},
		{`sum([])`, "Invalid function argument", "cannot sum an empty list"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, diags := s.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if len(diags) == 0 || diags[0].Summary != tt.summary || !strings.Contains(diags[0].Detail, tt.detail) {
				t.Fatalf("diagnostics = %v, want %q containing %q", diags, tt.summary, tt.detail)
			}
		})
	}
}

func TestFunctionsUnknownArguments(t *testing.T) {
	// Unknown arguments give unknown results, never errors.
	s := &Scope{Data: testData()}
	for _, src := range []string{
		`upper(var.unknown)`, `length(var.unknown)`, `replace(var.unknown, "a", "b")`, `sum([1, var.n, length(var.unknown)])`,
		`cidrhost(var.unknown, 1)`, `tostring(var.unknown)`, `one([var.unknown])`, `index([var.unknown], "a")`,
		`jsonencode({a = var.unknown})`, `try(var.unknown, "x")`, `transpose({a = [var.unknown], b = split(",", var.unknown)})`, `alltrue([true, var.unknown == "a"])`,
	} {
		got, diags := s.EvalExpr(parseExpr(t, src), cty.DynamicPseudoType)
		if diags.HasErrors() {
			t.Errorf("%s: unexpected diagnostics: %v", src, diags.Err())
			continue
		}
		if got.IsWhollyKnown() {
			t.Errorf("%s = %#v, want unknown", src, got)
		}
	}
}

func TestFunctionsCached(t *testing.T) {
	a, b := Functions("x"), Functions("x")
	if len(a) == 0 || len(a) != len(b) {
		t.Fatal("empty function table")
	}
	a["zzz_probe"] = a["upper"]
	defer delete(a, "zzz_probe")
	if _, ok := b["zzz_probe"]; !ok {
		t.Error("Functions is not cached: two calls returned different maps")
	}
	_ = hcl.InitialPos
}
