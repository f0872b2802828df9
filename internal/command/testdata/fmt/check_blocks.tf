check "health" {
  data "http" "site" {
    url = "https://example.com"
  }
  assert {
    condition = data.http.site.status_code==200
    error_message = "${data.http.site.url} returned an unhealthy status code"
  }
}
