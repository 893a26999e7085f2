package fdpvfs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
)

// StatsVersion is the version of the stats JSON layout below.
const StatsVersion = 1

// Stats is the per-tier byte count written as JSON (StatsPath, or ethstate
// --stats). Bytes are those written through the wrapper (write/pwrite
// calls), except the ancient tier, whose files geth writes itself: there they
// are the growth of the files' sizes seen by the watcher (method
// "size_delta"). Times are CLOCK_MONOTONIC nanoseconds.
type Stats struct {
	Version    int         `json:"version"`
	Dir        string      `json:"dir"`
	Mode       string      `json:"mode"`
	FDP        bool        `json:"fdp"`
	Map        string      `json:"map"`
	StartNs    int64       `json:"start_ns"`
	EndNs      int64       `json:"end_ns"`
	Tiers      []TierStats `json:"tiers"`
	IDs        []IDStats   `json:"ids"`
	TotalBytes uint64      `json:"total_bytes"`
	// UnmatchedTables counts tables whose flush/compaction job was not seen
	// (they are counted as deep).
	UnmatchedTables uint64 `json:"unmatched_tables"`
	// HintErrors counts failed fcntl(F_SET_RW_HINT) calls; LastHintError is
	// the last one's message.
	HintErrors    uint64 `json:"hint_errors"`
	LastHintError string `json:"last_hint_error,omitempty"`
	// Extra holds run parameters set by the program (see FS.SetExtra).
	Extra map[string]string `json:"extra,omitempty"`
}

// TierStats is one tier's line in Stats.
type TierStats struct {
	Tier  string `json:"tier"`
	ID    uint8  `json:"id"`
	Bytes uint64 `json:"bytes"`
	// PageBytes is the size of the 4 KiB pages the writes touched, each
	// counted once per file handle, plus one page each time a partly filled
	// last page that a full sync (Sync, SyncData) wrote is written into
	// again (for ancient files: the pages between the size first seen and
	// the last size). This is what a block trace should see when the kernel
	// writes pages back only at syncs and once at the end.
	PageBytes uint64 `json:"page_bytes"`
	Files     uint64 `json:"files"`
	Method    string `json:"method"` // "write" or "size_delta"
}

// IDStats sums the tiers that share a placement ID.
type IDStats struct {
	ID        uint8    `json:"id"`
	Bytes     uint64   `json:"bytes"`
	PageBytes uint64   `json:"page_bytes"`
	Tiers     []string `json:"tiers"`
}

// counters are the live, lock-free per-tier counters.
type counters struct {
	start           int64
	bytes           [NumTiers]atomic.Uint64
	pageBytes       [NumTiers]atomic.Uint64
	files           [NumTiers]atomic.Uint64
	unmatchedTables atomic.Uint64
	hintErrors      atomic.Uint64
	lastHintError   atomic.Value // string
}

var (
	sharedMu       sync.Mutex
	sharedCounters = map[string]*counters{}
)

// countersFor returns the counters behind stats file path. Every open of a
// database in one process that writes the same stats file shares them, so
// that the file covers the whole process (geth opens chaindata more than
// once). path "-" gets private counters.
func countersFor(path string) *counters {
	if path == "-" {
		return &counters{start: MonotonicNs()}
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	c := sharedCounters[path]
	if c == nil {
		c = &counters{start: MonotonicNs()}
		sharedCounters[path] = c
	}
	return c
}

func (c *counters) snapshot(o *Options, dir string, end int64) Stats {
	start := c.start
	s := Stats{
		Version:         StatsVersion,
		Dir:             dir,
		Mode:            o.Mode.String(),
		FDP:             !o.NonFDP,
		StartNs:         start,
		EndNs:           end,
		UnmatchedTables: c.unmatchedTables.Load(),
		HintErrors:      c.hintErrors.Load(),
	}
	var m TierMap
	for t := Tier(0); t < NumTiers; t++ {
		m[t] = o.ID(t)
	}
	s.Map = m.String()
	if v, ok := c.lastHintError.Load().(string); ok {
		s.LastHintError = v
	}
	byID := map[uint8]*IDStats{}
	for t := Tier(0); t < NumTiers; t++ {
		ts := TierStats{Tier: t.String(), ID: o.ID(t), Bytes: c.bytes[t].Load(), PageBytes: c.pageBytes[t].Load(), Files: c.files[t].Load(), Method: "write"}
		if t == TierAncient {
			ts.Method = "size_delta"
		}
		s.Tiers = append(s.Tiers, ts)
		s.TotalBytes += ts.Bytes
		is := byID[ts.ID]
		if is == nil {
			is = &IDStats{ID: ts.ID}
			byID[ts.ID] = is
		}
		is.Bytes += ts.Bytes
		is.PageBytes += ts.PageBytes
		is.Tiers = append(is.Tiers, ts.Tier)
	}
	for _, is := range byID {
		s.IDs = append(s.IDs, *is)
	}
	sort.Slice(s.IDs, func(i, j int) bool { return s.IDs[i].ID < s.IDs[j].ID })
	return s
}

// WriteStatsFile writes s as indented JSON to path atomically (temp + rename).
func WriteStatsFile(path string, s Stats) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadStatsFile reads a file written by WriteStatsFile.
func ReadStatsFile(path string) (Stats, error) {
	var s Stats
	b, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	err = json.Unmarshal(b, &s)
	return s, err
}
