package hclfmt

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteUnifiedDiff(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     string
	}{
		{name: "equal", old: "a = 1\n", new: "a = 1\n", want: ""},
		{name: "one line", old: "a=1\n", new: "a = 1\n", want: "--- old/f.tf\n+++ new/f.tf\n@@ -1 +1 @@\n-a=1\n+a = 1\n"},
		{
			name: "two hunks",
			old:  "a=1\nb\nc\nd\ne\nf\ng\nh\ni\nj=2\n",
			new:  "a = 1\nb\nc\nd\ne\nf\ng\nh\ni\nj = 2\n",
			want: "--- old/f.tf\n+++ new/f.tf\n@@ -1,4 +1,4 @@\n-a=1\n+a = 1\n b\n c\n d\n@@ -7,4 +7,4 @@\n g\n h\n i\n-j=2\n+j = 2\n",
		},
		{
			name: "no newline at the end",
			old:  "a=1",
			new:  "a = 1\n",
			want: "--- old/f.tf\n+++ new/f.tf\n@@ -1 +1 @@\n-a=1\n\\ No newline at end of file\n+a = 1\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			WriteUnifiedDiff(&b, "f.tf", []byte(tt.old), []byte(tt.new))
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("WriteUnifiedDiff (-want +got):\n%s", diff)
			}
		})
	}
}
