// Package s3test owns the servers the s3 backend's tests run against on
// loopback: an S3-compatible server (gofakes3 in this process, which
// performs conditional PUTs as S3 does), a DynamoDB server speaking the
// part of the DynamoDB JSON protocol the backend uses, and an STS server
// answering AssumeRole and GetCallerIdentity.
//
// It imports only the standard library and gofakes3.
package s3test
