// A marker sidecar: "<t_ns> <value>" lines (CLOCK_MONOTONIC), the format
// `ftlsim convert --markers` and tools/capture_blktrace.sh --markers merge
// into a trace. The patched `geth import` writes one line per imported block
// (GETH_FDP_MARKERS); several processes (chunked imports) append to one file.
package fdpvfs

import (
	"bufio"
	"fmt"
	"os"
	"sync"
)

// MarkerSidecar appends marker lines to a file. Safe for concurrent use.
type MarkerSidecar struct {
	mu sync.Mutex
	f  *os.File
	w  *bufio.Writer
	n  uint64
}

// OpenMarkerSidecar opens path for appending (creating it), and writes a
// comment line naming the writer when the file is new or empty.
func OpenMarkerSidecar(path, writer string) (*MarkerSidecar, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("marker sidecar: %w", err)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("marker sidecar %s: not a regular file", path)
	}
	m := &MarkerSidecar{f: f, w: bufio.NewWriterSize(f, 64<<10)}
	if st.Size() == 0 {
		fmt.Fprintf(m.w, "# markers v1: <t_ns CLOCK_MONOTONIC> <value>; writer=%s\n", writer)
	}
	return m, nil
}

// Mark appends "<now> <value>". Lines reach the file at Flush/Close, or
// when the buffer fills: the sidecar is not on the traced device, and its
// writes are kept out of the traced process's way.
func (m *MarkerSidecar) Mark(value uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintf(m.w, "%d %d\n", MonotonicNs(), value)
	m.n++
}

// Count is the number of marks so far.
func (m *MarkerSidecar) Count() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}

// Close flushes and closes the file.
func (m *MarkerSidecar) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	err := m.w.Flush()
	if cerr := m.f.Close(); err == nil {
		err = cerr
	}
	return err
}
