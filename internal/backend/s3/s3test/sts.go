package s3test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// STS is an STS server on loopback answering AssumeRole and
// AssumeRoleWithWebIdentity (with the temporary access key TempAccessKey)
// and GetCallerIdentity (account Account), and recording each call.
type STS struct {
	// URL is the endpoint, for endpoints.sts.
	URL   string
	mu    sync.Mutex
	calls []STSCall
}

// STSCall is one request STS served: its action, the access key that
// signed it, and its parameters.
type STSCall struct {
	Action    string
	AccessKey string
	Params    url.Values
}

// Values the STS server answers with.
const (
	TempAccessKey = "ASIATEMPORARYKEY"
	Account       = "123456789012"
)

// NewSTS starts a server, stopped when the test ends.
func NewSTS(t testing.TB) *STS {
	t.Helper()
	s := &STS{}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Calls returns the requests served so far.
func (s *STS) Calls() []STSCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]STSCall(nil), s.calls...)
}

func (s *STS) serve(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	action := r.Form.Get("Action")
	s.mu.Lock()
	s.calls = append(s.calls, STSCall{Action: action, AccessKey: AccessKey(r.Header), Params: r.Form})
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/xml")
	const ns = `xmlns="https://sts.amazonaws.com/doc/2011-06-15/"`
	switch action {
	case "AssumeRole":
		fmt.Fprintf(w, `<AssumeRoleResponse %s><AssumeRoleResult><Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>temporary-secret</SecretAccessKey><SessionToken>temporary-token</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials><AssumedRoleUser><Arn>arn:aws:sts::%s:assumed-role/state/%s</Arn><AssumedRoleId>AROATEST:%s</AssumedRoleId></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></AssumeRoleResponse>`,
			ns, TempAccessKey, Account, r.Form.Get("RoleSessionName"), r.Form.Get("RoleSessionName"))
	case "AssumeRoleWithWebIdentity":
		fmt.Fprintf(w, `<AssumeRoleWithWebIdentityResponse %s><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>temporary-secret</SecretAccessKey><SessionToken>temporary-token</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials><SubjectFromWebIdentityToken>ci</SubjectFromWebIdentityToken><AssumedRoleUser><Arn>arn:aws:sts::%s:assumed-role/state/%s</Arn><AssumedRoleId>AROATEST:%s</AssumedRoleId></AssumedRoleUser></AssumeRoleWithWebIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></AssumeRoleWithWebIdentityResponse>`,
			ns, TempAccessKey, Account, r.Form.Get("RoleSessionName"), r.Form.Get("RoleSessionName"))
	case "GetCallerIdentity":
		fmt.Fprintf(w, `<GetCallerIdentityResponse %s><GetCallerIdentityResult><Arn>arn:aws:iam::%s:user/test</Arn><UserId>AIDATEST</UserId><Account>%s</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>2</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
			ns, Account, Account)
	default:
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `<ErrorResponse %s><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>%s is not served</Message></Error><RequestId>3</RequestId></ErrorResponse>`, ns, action)
	}
}

// AccessKey returns the access key ID that signed a request (from its
// SigV4 Authorization header), "" for an unsigned one.
func AccessKey(h http.Header) string {
	_, rest, ok := strings.Cut(h.Get("Authorization"), "Credential=")
	if !ok {
		return ""
	}
	key, _, _ := strings.Cut(rest, "/")
	return key
}
