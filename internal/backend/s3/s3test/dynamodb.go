package s3test

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// DynamoDB is a DynamoDB server on loopback with tables keyed by the string
// attribute LockID, serving the operations the s3 backend uses: PutItem
// (with the condition attribute_not_exists(LockID) or none), GetItem,
// DeleteItem (with the condition Info = :info or none) and DescribeTable.
// Items are maps of attribute name to {"S": value}.
type DynamoDB struct {
	// URL is the endpoint, for endpoints.dynamodb.
	URL    string
	mu     sync.Mutex
	tables map[string]map[string]map[string]attr
}

type attr struct {
	S string `json:"S"`
}

// NewDynamoDB starts a server with the given (empty) tables, stopped when
// the test ends.
func NewDynamoDB(t testing.TB, tables ...string) *DynamoDB {
	t.Helper()
	d := &DynamoDB{tables: map[string]map[string]map[string]attr{}}
	for _, name := range tables {
		d.tables[name] = map[string]map[string]attr{}
	}
	srv := httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(srv.Close)
	d.URL = srv.URL
	return d
}

// Item returns the S attributes of an item, nil when there is none.
func (d *DynamoDB) Item(table, lockID string) map[string]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	item := d.tables[table][lockID]
	if item == nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range item {
		out[k] = v.S
	}
	return out
}

// PutItem stores an item directly, as another tool would.
func (d *DynamoDB) PutItem(table string, item map[string]string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	it := map[string]attr{}
	for k, v := range item {
		it[k] = attr{S: v}
	}
	d.tables[table][item["LockID"]] = it
}

type request struct {
	TableName                 string
	Item                      map[string]attr
	Key                       map[string]attr
	ConditionExpression       string
	ExpressionAttributeValues map[string]attr
	ProjectionExpression      string
}

func (d *DynamoDB) serve(w http.ResponseWriter, r *http.Request) {
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		fail(w, "SerializationException", err.Error())
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	table, ok := d.tables[req.TableName]
	if !ok {
		fail(w, "ResourceNotFoundException", "Requested resource not found: Table: "+req.TableName+" not found")
		return
	}
	switch op {
	case "DescribeTable":
		reply(w, map[string]any{"Table": map[string]any{"TableName": req.TableName, "TableStatus": "ACTIVE"}})
	case "PutItem":
		id := req.Item["LockID"].S
		switch req.ConditionExpression {
		case "":
		case "attribute_not_exists(LockID)":
			if _, exists := table[id]; exists {
				fail(w, "ConditionalCheckFailedException", "The conditional request failed")
				return
			}
		default:
			fail(w, "ValidationException", "unsupported condition "+req.ConditionExpression)
			return
		}
		table[id] = req.Item
		reply(w, map[string]any{})
	case "GetItem":
		item, ok := table[req.Key["LockID"].S]
		if !ok {
			reply(w, map[string]any{})
			return
		}
		reply(w, map[string]any{"Item": item})
	case "DeleteItem":
		id := req.Key["LockID"].S
		switch req.ConditionExpression {
		case "":
		case "Info = :info":
			if item, ok := table[id]; !ok || item["Info"].S != req.ExpressionAttributeValues[":info"].S {
				fail(w, "ConditionalCheckFailedException", "The conditional request failed")
				return
			}
		default:
			fail(w, "ValidationException", "unsupported condition "+req.ConditionExpression)
			return
		}
		delete(table, id)
		reply(w, map[string]any{})
	default:
		fail(w, "UnknownOperationException", fmt.Sprintf("operation %q is not served", op))
	}
}

func reply(w http.ResponseWriter, v any) { write(w, http.StatusOK, v) }

func fail(w http.ResponseWriter, code, msg string) {
	write(w, http.StatusBadRequest, map[string]string{"__type": "com.amazonaws.dynamodb.v20120810#" + code, "message": msg})
}

// write sends a JSON reply with the CRC-32 header DynamoDB sends and its
// clients check.
func write(w http.ResponseWriter, status int, v any) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
