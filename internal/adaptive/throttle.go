package adaptive

import "strings"

// throttlingPatterns are what the major cloud SDKs and APIs say when a call
// was refused for the rate of calls, lower-cased: AWS's error codes and
// message, HTTP 429 as SDKs print it, Azure's and Google's codes.
var throttlingPatterns = []string{
	"throttlingexception", "throttling:", "throttled", "rate exceeded", "ratelimitexceeded",
	"requestlimitexceeded", "toomanyrequests", "too many requests", "requestthrottled",
	"slowdown", "rate limit", "ratelimit", "quota exceeded", "resource_exhausted", "resourceexhausted",
	"statuscode: 429", "status code 429", "status 429", "http 429", "429 too many",
}

// Throttling reports whether the text of a provider's diagnostic (its
// summary and detail) says that the API refused a call for the rate of
// calls. Providers retry such errors themselves; one they report has
// outlasted their retries.
func Throttling(text string) bool {
	t := strings.ToLower(text)
	for _, p := range throttlingPatterns {
		if strings.Contains(t, p) {
			return true
		}
	}
	return false
}
