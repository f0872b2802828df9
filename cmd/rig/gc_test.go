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
		{600 << 20, 900 << 20},
		{3 << 28, 9 << 27},
		{3 << 30, 9 << 29},
	}
	for _, tt := range tests {
		if got := memoryLimitFor(tt.live); got != tt.want {
			t.Errorf("memoryLimitFor(%d MiB) = %d MiB, want %d MiB", tt.live>>20, got>>20, tt.want>>20)
		}
	}
}
