package cloud

import (
	"testing"
	"time"
)

func TestBucket(t *testing.T) {
	now := time.Unix(0, 0)
	b := newBucket(10, 3, func() time.Time { return now })
	took := func() int {
		n := 0
		for b.take() {
			n++
		}
		return n
	}
	if got := took(); got != 3 {
		t.Fatalf("a full bucket admitted %d calls, want its burst, 3", got)
	}
	now = now.Add(250 * time.Millisecond)
	if got := took(); got != 2 {
		t.Errorf("after 250 ms at 10/s the bucket admitted %d calls, want 2", got)
	}
	now = now.Add(time.Hour)
	if got := took(); got != 3 {
		t.Errorf("after an hour the bucket admitted %d calls, want no more than its burst, 3", got)
	}
	unlimited := newBucket(0, 0, func() time.Time { return now })
	for range 1000 {
		if !unlimited.take() {
			t.Fatal("a bucket without a rate refused a call")
		}
	}
}
