package jsonformat

import (
	"encoding/json"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/getproviders"
)

func TestNewVersion(t *testing.T) {
	v, err := getproviders.ParseVersion("3.6.2")
	if err != nil {
		t.Fatal(err)
	}
	locks := []*getproviders.Lock{{Provider: addrs.NewDefaultProvider("random"), Version: v}}
	b, err := json.Marshal(NewVersion(locks, "linux_amd64", "1.11.0", "0.9.0"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"terraform_version":"1.11.0","platform":"linux_amd64","provider_selections":{"registry.terraform.io/hashicorp/random":"3.6.2"},"rig_version":"0.9.0"}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if b, _ := json.Marshal(NewVersion(nil, "linux_amd64", "1.11.0", "0.9.0")); string(b) != `{"terraform_version":"1.11.0","platform":"linux_amd64","provider_selections":{},"rig_version":"0.9.0"}` {
		t.Errorf("without a lock file: %s", b)
	}
}
