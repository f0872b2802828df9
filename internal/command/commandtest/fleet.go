package commandtest

import (
	"path/filepath"
	"strconv"
)

// GatedFleet is a configuration for the test provider plugin (rig/test):
// count test_service objects kept in the directory world, replaced create
// first when version changes, each new one ready after readyAfter reads
// (a number, as HCL) and checked by a postcondition on its readiness, and
// test_thing.lb, which refers to every one.
func GatedFleet(world, version, readyAfter string, count int) string {
	return `terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
resource "test_service" "web" {
  count       = ` + strconv.Itoa(count) + `
  dir         = "` + filepath.ToSlash(world) + `"
  name        = "web${count.index}"
  version     = "` + version + `"
  ready_after = ` + readyAfter + `
  lifecycle {
    create_before_destroy = true
    postcondition {
      condition     = self.ready
      error_message = "${self.id} is not ready."
    }
  }
}
resource "test_thing" "lb" {
  name = "lb"
  tags = { backends = join(",", test_service.web[*].id) }
}
`
}
