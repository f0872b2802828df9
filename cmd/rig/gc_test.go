package main

import "testing"

func TestMemoryLimitFor(t *testing.T) {
	tests := []struct {
		live uint64
		want int64
	}{
		{0, heapSoftLimit},
		{200 << 20, heapSoftLimit},
		{heapSoftLimit / 2, heapSoftLimit},
		{heapSoftLimit / 3 * 2, heapSoftLimit},
		{heapSoftLimit / 4 * 3, heapSoftLimit},
		{660 << 20, heapSoftLimit},
		{3 << 28, 1 << 30},
		{3 << 30, 4 << 30},
	}
	for _, tt := range tests {
		if got := memoryLimitFor(tt.live); got != tt.want {
			t.Errorf("memoryLimitFor(%d MiB) = %d MiB, want %d MiB", tt.live>>20, got>>20, tt.want>>20)
		}
	}
}
