package state

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
)

var (
	pcA = addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: addrs.NewDefaultProvider("test")}
	pcB = addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: addrs.NewDefaultProvider("test"), Alias: "b"}
)

func inst(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, err := addrs.ParseAbsResourceInstanceStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func cur(t *testing.T, s string) addrs.ObjectAddr {
	return addrs.ObjectAddr{Instance: inst(t, s)}
}

func deposed(t *testing.T, s string, k addrs.DeposedKey) addrs.ObjectAddr {
	return addrs.ObjectAddr{Instance: inst(t, s), Deposed: k}
}

func obj(id string) *Object {
	return &Object{AttrsJSON: []byte(`{"id":"` + id + `"}`)}
}

// objectList renders s.Objects() with each object's id, for comparisons.
func objectList(s *State) []string {
	var out []string
	for _, oa := range s.Objects() {
		out = append(out, oa.String()+"="+string(s.Object(oa).AttrsJSON))
	}
	return out
}

func TestSetObject(t *testing.T) {
	s := New()
	s.SetObject(cur(t, "test_thing.a"), obj("1"), pcA)
	s.SetObject(deposed(t, "test_thing.a", "00000001"), obj("0"), pcA)
	s.SetObject(cur(t, `test_thing.b["k"]`), obj("2"), pcB)

	if got := s.Object(cur(t, "test_thing.a")); got == nil || string(got.AttrsJSON) != `{"id":"1"}` {
		t.Errorf("current object of a = %v", got)
	}
	if got := s.Object(deposed(t, "test_thing.a", "00000001")); got == nil || string(got.AttrsJSON) != `{"id":"0"}` {
		t.Errorf("deposed object of a = %v", got)
	}
	if got := s.Object(deposed(t, "test_thing.a", "99999999")); got != nil {
		t.Errorf("unknown deposed key: got %v", got)
	}
	if got := s.Object(cur(t, "test_thing.missing")); got != nil {
		t.Errorf("missing resource: got %v", got)
	}
	if got := s.Resource(inst(t, `test_thing.b["k"]`).ContainingResource()).ProviderConfig; got != pcB {
		t.Errorf("provider of b = %s, want %s", got, pcB)
	}

	// Replacing an object keeps the others; a zero provider config keeps the recorded one.
	s.SetObject(cur(t, "test_thing.a"), obj("1b"), addrs.AbsProviderConfig{})
	if got := s.Resource(inst(t, "test_thing.a").ContainingResource()).ProviderConfig; got != pcA {
		t.Errorf("provider after SetObject with zero provider = %s, want %s", got, pcA)
	}
	want := []string{
		`test_thing.a={"id":"1b"}`,
		`test_thing.a (deposed object 00000001)={"id":"0"}`,
		`test_thing.b["k"]={"id":"2"}`,
	}
	if diff := cmp.Diff(want, objectList(s)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}

	// Removing: the current object only, then the deposed one, which empties
	// the instance and so the resource.
	s.SetObject(cur(t, "test_thing.a"), nil, pcA)
	if i := s.Instance(inst(t, "test_thing.a")); i == nil || i.Current != nil || len(i.Deposed) != 1 {
		t.Fatalf("after removing the current object: instance %+v", i)
	}
	s.SetObject(deposed(t, "test_thing.a", "00000001"), nil, pcA)
	if r := s.Resource(inst(t, "test_thing.a").ContainingResource()); r != nil {
		t.Errorf("a resource with no objects is kept: %+v", r)
	}
	// Removing what is not there is a no-op.
	s.SetObject(cur(t, "test_thing.nothing"), nil, pcA)
	s.SetObject(cur(t, `test_thing.b["other"]`), nil, pcA)
	if diff := cmp.Diff([]string{`test_thing.b["k"]={"id":"2"}`}, objectList(s)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	s.SetObject(cur(t, `test_thing.b["k"]`), nil, pcB)
	if !s.Empty() {
		t.Errorf("state not empty after removing every object: %v", objectList(s))
	}
}

func TestDepose(t *testing.T) {
	s := New()
	a := inst(t, "test_thing.a[0]")
	if k := s.Depose(a); k != addrs.NotDeposed {
		t.Errorf("Depose of a missing instance = %q, want NotDeposed", k)
	}
	s.SetObject(addrs.ObjectAddr{Instance: a}, obj("1"), pcA)
	k1 := s.Depose(a)
	if k1 == addrs.NotDeposed || !regexp.MustCompile(`^[0-9a-f]{8}$`).MatchString(string(k1)) {
		t.Fatalf("Depose = %q, want eight hex digits", k1)
	}
	if i := s.Instance(a); i.Current != nil || string(i.Deposed[k1].AttrsJSON) != `{"id":"1"}` {
		t.Errorf("after Depose: current %v, deposed %v", i.Current, i.Deposed)
	}
	if k := s.Depose(a); k != addrs.NotDeposed {
		t.Errorf("Depose without a current object = %q, want NotDeposed", k)
	}
	// Every depose gets a key not used before.
	keys := map[addrs.DeposedKey]bool{k1: true}
	for i := range 50 {
		s.SetObject(addrs.ObjectAddr{Instance: a}, obj(strings.Repeat("x", i)), pcA)
		k := s.Depose(a)
		if keys[k] {
			t.Fatalf("deposed key %s reused", k)
		}
		keys[k] = true
	}
	if got := len(s.Instance(a).Deposed); got != 51 {
		t.Errorf("%d deposed objects, want 51", got)
	}
	if s.Resource(a.ContainingResource()).ProviderConfig != pcA {
		t.Errorf("Depose changed the provider")
	}
}

func TestNewDeposedKeyAvoidsUsedKeys(t *testing.T) {
	i := &Instance{Deposed: map[addrs.DeposedKey]*Object{}}
	for range 200 {
		k := NewDeposedKey(i)
		if i.Deposed[k] != nil {
			t.Fatalf("NewDeposedKey returned used key %s", k)
		}
		i.Deposed[k] = obj("x")
	}
	if k := NewDeposedKey(nil); len(k) != 8 {
		t.Errorf("NewDeposedKey(nil) = %q", k)
	}
}

func TestObjectsSorted(t *testing.T) {
	s := New()
	// Added out of order on purpose.
	for _, oa := range []addrs.ObjectAddr{
		cur(t, `test_thing.b["y"]`),
		deposed(t, "test_thing.a[10]", "0000000b"),
		cur(t, "test_thing.a[10]"),
		cur(t, "test_thing.a[2]"),
		deposed(t, "test_thing.a[10]", "0000000a"),
		cur(t, `test_thing.b["x"]`),
		cur(t, "data.test_thing.a"),
		cur(t, "test_other.a"),
	} {
		s.SetObject(oa, obj(oa.String()), pcA)
	}
	var got []string
	for _, oa := range s.Objects() {
		got = append(got, oa.String())
	}
	want := []string{
		"test_other.a",
		"test_thing.a[2]",
		"test_thing.a[10]",
		"test_thing.a[10] (deposed object 0000000a)",
		"test_thing.a[10] (deposed object 0000000b)",
		`test_thing.b["x"]`,
		`test_thing.b["y"]`,
		"data.test_thing.a",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Objects (-want +got):\n%s", diff)
	}
	if got := New().Objects(); len(got) != 0 {
		t.Errorf("Objects of an empty state = %v", got)
	}
}

func TestDeepCopySharesNoMaps(t *testing.T) {
	if (*State)(nil).DeepCopy() != nil {
		t.Errorf("DeepCopy of nil is not nil")
	}
	s := New()
	s.Serial = 4
	s.TerraformVersion = "1.10.0"
	s.CheckResults = []byte(`[]`)
	s.SetObject(cur(t, "test_thing.a"), obj("1"), pcA)
	s.SetObject(deposed(t, "test_thing.a", "00000001"), obj("0"), pcA)
	s.SetObject(cur(t, "test_thing.b[0]"), obj("2"), pcB)
	s.Outputs["o"] = OutputValue{Value: cty.StringVal("v")}
	before := objectList(s)

	c := s.DeepCopy()
	if c.Lineage != s.Lineage || c.Serial != 4 || c.TerraformVersion != "1.10.0" || string(c.CheckResults) != "[]" {
		t.Errorf("copy header = %q %d %q %s", c.Lineage, c.Serial, c.TerraformVersion, c.CheckResults)
	}
	if diff := cmp.Diff(before, objectList(c)); diff != "" {
		t.Errorf("copy has other objects (-want +got):\n%s", diff)
	}
	// Objects are shared: they are never modified once recorded.
	if c.Object(cur(t, "test_thing.a")) != s.Object(cur(t, "test_thing.a")) {
		t.Errorf("objects are copied; they are meant to be shared")
	}

	// Every change to the copy, through every map, leaves s alone.
	c.SetObject(cur(t, "test_thing.a"), obj("changed"), pcA)
	c.SetObject(deposed(t, "test_thing.a", "00000001"), nil, pcA)
	c.SetObject(deposed(t, "test_thing.a", "00000002"), obj("new deposed"), pcA)
	c.SetObject(cur(t, "test_thing.b[1]"), obj("new instance"), pcB)
	c.SetObject(cur(t, "test_thing.c"), obj("new resource"), pcA)
	c.Depose(inst(t, "test_thing.b[0]"))
	c.Resources[inst(t, "test_thing.a").ContainingResource()].ProviderConfig = pcB
	c.Outputs["o"] = OutputValue{Value: cty.StringVal("changed")}
	c.Outputs["p"] = OutputValue{Value: cty.True}
	delete(c.Resources, inst(t, "test_thing.b[0]").ContainingResource())

	if diff := cmp.Diff(before, objectList(s)); diff != "" {
		t.Errorf("changing the copy changed the original (-want +got):\n%s", diff)
	}
	if got := s.Resource(inst(t, "test_thing.a").ContainingResource()).ProviderConfig; got != pcA {
		t.Errorf("original provider = %s", got)
	}
	if len(s.Outputs) != 1 || !s.Outputs["o"].Value.RawEquals(cty.StringVal("v")) {
		t.Errorf("original outputs = %v", s.Outputs)
	}

	// And the other way round.
	c2 := s.DeepCopy()
	s.SetObject(deposed(t, "test_thing.a", "00000003"), obj("x"), pcA)
	if c2.Object(deposed(t, "test_thing.a", "00000003")) != nil {
		t.Errorf("changing the original changed the copy")
	}
}

func TestEmptyAndHasObjects(t *testing.T) {
	s := New()
	if !s.Empty() {
		t.Errorf("New() is not empty")
	}
	s.Outputs["o"] = OutputValue{Value: cty.True}
	if s.Empty() {
		t.Errorf("a state with an output is empty")
	}
	var nilInst *Instance
	if nilInst.HasObjects() || (&Instance{}).HasObjects() {
		t.Errorf("an instance without objects has objects")
	}
	if !(&Instance{Deposed: map[addrs.DeposedKey]*Object{"00000001": obj("1")}}).HasObjects() {
		t.Errorf("an instance with a deposed object has none")
	}
}

func TestObjectEncoding(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "n": cty.Number, "tags": cty.Map(cty.String), "any": cty.DynamicPseudoType})
	v := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("x"), "n": cty.NumberIntVal(3),
		"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
		"any":  cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.True}),
	})
	o, err := NewObject(v, ty)
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != Ready || o.Status.String() != "ready" || Tainted.String() != "tainted" {
		t.Errorf("status %v", o.Status)
	}
	got, err := o.Decode(ty)
	if err != nil || !got.RawEquals(v) {
		t.Errorf("Decode(NewObject) = %#v, %v", got, err)
	}
	if _, err := (&Object{}).Decode(ty); err == nil {
		t.Errorf("decoding an object without JSON attributes: no error")
	}
	if _, err := (&Object{AttrsJSON: []byte(`{"id": 1, "nope": true}`)}).Decode(ty); err == nil {
		t.Errorf("decoding attributes the type does not have: no error")
	}
	if _, err := NewObject(cty.UnknownVal(ty), ty); err == nil {
		t.Errorf("encoding an unknown value: no error")
	}
}

func TestNewLineage(t *testing.T) {
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 100 {
		l := NewLineage()
		if !uuid.MatchString(l) {
			t.Fatalf("NewLineage() = %q, not a version-4 UUID", l)
		}
		if seen[l] {
			t.Fatalf("lineage %s repeated", l)
		}
		seen[l] = true
	}
	if a, b := New(), New(); a.Lineage == b.Lineage {
		t.Errorf("two new states share a lineage")
	}
}

func TestSensitivePathsRoundTrip(t *testing.T) {
	paths := []cty.Path{
		cty.GetAttrPath("input"),
		cty.GetAttrPath("tags").IndexString("k"),
		cty.GetAttrPath("list").IndexInt(2).GetAttr("x"),
	}
	raw, err := SensitivePathsJSON(paths)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseSensitivePaths(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(paths) {
		t.Fatalf("got %d paths, want %d", len(got), len(paths))
	}
	for i := range paths {
		if !got[i].Equals(paths[i]) {
			t.Errorf("path %d: got %#v, want %#v", i, got[i], paths[i])
		}
	}
	if _, err := ParseSensitivePaths([]byte(`[[{"type":"splat"}]]`)); err == nil {
		t.Error("an unknown step type was accepted")
	}
}

// TestProviderInstanceKeys: the resource records the provider
// configuration, each instance its instance key; copies keep them.
func TestProviderInstanceKeys(t *testing.T) {
	pc := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("aws"), Alias: "by_region"}
	r := addrs.Resource{Mode: addrs.Managed, Type: "aws_x", Name: "a"}
	eu, us := r.Instance(addrs.StringKey("eu")).Absolute(addrs.RootModule), r.Instance(addrs.StringKey("us")).Absolute(addrs.RootModule)
	s := New()
	s.SetObject(addrs.ObjectAddr{Instance: eu}, &Object{AttrsJSON: []byte(`{}`)}, pc.Instance(addrs.StringKey("eu-west-1")))
	s.SetObject(addrs.ObjectAddr{Instance: us}, &Object{AttrsJSON: []byte(`{}`)}, pc.Instance(addrs.StringKey("us-east-1")))
	rs := s.Resource(eu.ContainingResource())
	if rs.ProviderConfig != pc || !rs.HasProviderKeys() {
		t.Fatalf("resource provider %s (keys %v), want %s with keys", rs.ProviderConfig, rs.HasProviderKeys(), pc)
	}
	c := s.DeepCopy()
	// Deposing keeps the instance's provider.
	c.Depose(us)
	for _, st := range []*State{s, c} {
		if got := st.ObjectProvider(us); got != pc.Instance(addrs.StringKey("us-east-1")) {
			t.Errorf("provider of %s = %s", us, got)
		}
	}
	// A zero provider keeps what is recorded.
	s.SetObject(addrs.ObjectAddr{Instance: eu}, &Object{AttrsJSON: []byte(`{"x":1}`)}, addrs.AbsProviderConfig{})
	if got := s.ObjectProvider(eu); got != pc.Instance(addrs.StringKey("eu-west-1")) {
		t.Errorf("provider of %s after an update without one = %s", eu, got)
	}
}
