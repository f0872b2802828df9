package http

import (
	nethttp "net/http"
	"net/http/httptest"
)

func httptestServer(h nethttp.Handler) *httptest.Server { return httptest.NewServer(h) }
