package fdpvfs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMarkerSidecar: one header when the file is new, "<t_ns> <value>" lines
// in order with non-decreasing times, appends from a second writer (a later
// geth process), and a directory is refused.
func TestMarkerSidecar(t *testing.T) {
	path := filepath.Join(t.TempDir(), "markers.txt")
	for _, vals := range [][]uint64{{1, 2, 3}, {4, 5}} {
		m, err := OpenMarkerSidecar(path, "test")
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			m.Mark(v)
		}
		if m.Count() != uint64(len(vals)) {
			t.Errorf("count %d", m.Count())
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "# markers v1: ") {
		t.Fatalf("sidecar:\n%s", b)
	}
	var last int64
	for i, l := range lines[1:] {
		f := strings.Fields(l)
		ts, err1 := strconv.ParseInt(f[0], 10, 64)
		v, err2 := strconv.ParseUint(f[1], 10, 64)
		if len(f) != 2 || err1 != nil || err2 != nil || v != uint64(i+1) || ts < last || ts <= 0 {
			t.Fatalf("line %q (want value %d, time >= %d)", l, i+1, last)
		}
		last = ts
	}
	if _, err := OpenMarkerSidecar(t.TempDir(), "test"); err == nil {
		t.Error("a directory was accepted as the sidecar")
	}
}
