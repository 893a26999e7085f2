package fdpvfs

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
)

// Event is one line of the JSONL event log (log mode). One line per file
// event, not per write:
//
//	{"t_ns":123,"ev":"create","file":"/db/000012.sst","tier":"flush","id":2,"bytes":0,"ino":1311,"job":7}
//
//	t_ns   CLOCK_MONOTONIC nanoseconds
//	ev     create | reuse | open_rw | classify | unmatched | close | remove | rename | ancient | ancient_end | finish
//	file   path as Pebble (or the ancient watcher) named it; rename: the new name
//	from   rename only: the old name
//	tier   tier name (see Tier.String); "classify" gives a table its final tier
//	id     placement ID of the tier under the options in force
//	bytes  close: bytes written through this handle; ancient_end: size growth
//	       seen by the watcher; finish: all bytes counted; else 0
//	ino    inode number (0 when unknown), to join with a hint tracer's inode
//	job    Pebble flush/compaction job ID (classify only)
type Event struct {
	TimeNs int64  `json:"t_ns"`
	Ev     string `json:"ev"`
	File   string `json:"file"`
	From   string `json:"from,omitempty"`
	Tier   string `json:"tier"`
	ID     uint8  `json:"id"`
	Bytes  int64  `json:"bytes"`
	Ino    uint64 `json:"ino"`
	Job    int    `json:"job,omitempty"`
}

// eventLog appends Events to a file, one JSON object per line, flushed per
// line so that a crash loses at most the line being written.
type eventLog struct {
	mu  sync.Mutex
	f   *os.File
	w   *bufio.Writer
	enc *json.Encoder
	err error
}

func openEventLog(path string) (*eventLog, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	l := &eventLog{f: f, w: bufio.NewWriter(f)}
	l.enc = json.NewEncoder(l.w)
	return l, nil
}

func (l *eventLog) add(e Event) {
	if l == nil {
		return
	}
	if e.TimeNs == 0 {
		e.TimeNs = MonotonicNs()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil || l.f == nil {
		return
	}
	if err := l.enc.Encode(&e); err != nil {
		l.err = err
		return
	}
	l.err = l.w.Flush()
}

func (l *eventLog) close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return l.err
	}
	err := l.w.Flush()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	if l.err == nil {
		l.err = err
	}
	return l.err
}
