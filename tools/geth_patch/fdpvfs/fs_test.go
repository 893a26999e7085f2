package fdpvfs

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"
)

// countingFS is the fake file system under the wrapper: it counts every
// byte written to any file, independently of the wrapper's accounting.
type countingFS struct {
	vfs.FS
	written atomic.Int64
}

type countingFile struct {
	vfs.File
	fs *countingFS
}

func (f countingFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.fs.written.Add(int64(n))
	return n, err
}

func (f countingFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	f.fs.written.Add(int64(n))
	return n, err
}

func (c *countingFS) wrap(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	return countingFile{File: f, fs: c}, nil
}

func (c *countingFS) Create(name string) (vfs.File, error) { return c.wrap(c.FS.Create(name)) }
func (c *countingFS) OpenReadWrite(name string, o ...vfs.OpenOption) (vfs.File, error) {
	return c.wrap(c.FS.OpenReadWrite(name, o...))
}
func (c *countingFS) ReuseForWrite(a, b string) (vfs.File, error) {
	return c.wrap(c.FS.ReuseForWrite(a, b))
}

func tierBytes(s Stats) map[string]uint64 {
	m := map[string]uint64{}
	for _, t := range s.Tiers {
		m[t.Tier] = t.Bytes
	}
	return m
}

func write(t *testing.T, f vfs.File, n int) {
	t.Helper()
	if _, err := f.Write(make([]byte, n)); err != nil {
		t.Fatal(err)
	}
}

// TestClassifyFakeFS drives the listener by hand over an in-memory FS.
func TestClassifyFakeFS(t *testing.T) {
	mem := &countingFS{FS: vfs.NewMem()}
	if err := mem.MkdirAll("/db", 0o755); err != nil {
		t.Fatal(err)
	}
	fs, err := New(mem, "/db", Options{Mode: ModeNone, StatsPath: "-", AncientDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	l := fs.EventListener()

	wal, _ := fs.Create("/db/000002.log")
	write(t, wal, 100)
	man, _ := fs.Create("/db/MANIFEST-000001")
	write(t, man, 7)

	table := func(job int, name string, n int) {
		f, err := fs.Create("/db/" + name)
		if err != nil {
			t.Fatal(err)
		}
		l.TableCreated(pebble.TableCreateInfo{JobID: job, Reason: "compacting", Path: "/db/" + name})
		write(t, f, n)
		f.Close()
	}
	l.FlushBegin(pebble.FlushInfo{JobID: 1})
	table(1, "000010.sst", 1000)
	l.FlushEnd(pebble.FlushInfo{JobID: 1})

	l.CompactionBegin(pebble.CompactionInfo{JobID: 2, Input: []pebble.LevelInfo{{Level: 0}, {Level: 3}}, Output: pebble.LevelInfo{Level: 3}})
	l.CompactionBegin(pebble.CompactionInfo{JobID: 3, Input: []pebble.LevelInfo{{Level: 3}, {Level: 4}}, Output: pebble.LevelInfo{Level: 4}})
	l.CompactionBegin(pebble.CompactionInfo{JobID: 4, Input: []pebble.LevelInfo{{Level: 5}, {Level: 6}}, Output: pebble.LevelInfo{Level: 6}})
	// Interleaved jobs: each table goes to its own job's tier.
	table(3, "000011.sst", 30)
	table(2, "000012.sst", 20)
	table(4, "000013.sst", 40)
	table(2, "000014.sst", 21)

	// A table whose job was never announced is counted as deep.
	orphan, _ := fs.Create("/db/000015.sst")
	write(t, orphan, 5)
	orphan.Close()

	wal.Close()
	man.Close()

	got := tierBytes(fs.Stats())
	want := map[string]uint64{"wal": 100, "meta": 7, "flush": 1000, "l0cmp": 41, "midcmp": 30, "deep": 45}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("tier %s: %d bytes, want %d", k, got[k], v)
		}
	}
	s := fs.Stats()
	if s.UnmatchedTables != 1 {
		t.Errorf("unmatched tables = %d, want 1", s.UnmatchedTables)
	}
	if s.TotalBytes != uint64(mem.written.Load()) {
		t.Errorf("total %d != bytes written %d", s.TotalBytes, mem.written.Load())
	}
}

// smallOptions makes Pebble flush and compact a lot on little data.
func smallOptions() *pebble.Options {
	o := &pebble.Options{
		MemTableSize:          256 << 10,
		L0CompactionThreshold: 2,
		LBaseMaxBytes:         512 << 10,
		Levels:                []pebble.LevelOptions{{TargetFileSize: 128 << 10}},
	}
	return o
}

// fill writes n keys of 200-byte values in batches, then flushes.
func fill(t *testing.T, db *pebble.DB, from, n int) {
	t.Helper()
	val := make([]byte, 200)
	for i := from; i < from+n; i += 100 {
		b := db.NewBatch()
		for j := i; j < i+100 && j < from+n; j++ {
			copy(val, fmt.Sprintf("value-%d", j))
			if err := b.Set([]byte(fmt.Sprintf("key-%08d", (j*7919)%1000003)), val, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Commit(pebble.NoSync); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestPebbleCountersAddUp runs real Pebble flushes and compactions over a
// fake (in-memory) FS and checks that every table is matched to its job
// and that the tiers add up to exactly the bytes that reached the FS.
func TestPebbleCountersAddUp(t *testing.T) {
	mem := &countingFS{FS: vfs.NewMem()}
	opt := smallOptions()
	opt.FS = mem
	fs, err := Install(opt, "db", Options{Mode: ModeNone, StatsPath: "-", AncientDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	db, err := pebble.Open("db", opt)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, db, 0, 30000)
	if err := db.Compact([]byte("key-"), []byte("key-~"), true); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s := fs.Stats()
	got := tierBytes(s)
	for _, tier := range []string{"wal", "flush", "l0cmp", "deep", "meta"} {
		if got[tier] == 0 {
			t.Errorf("tier %s wrote nothing: %v", tier, got)
		}
	}
	if s.UnmatchedTables != 0 {
		t.Errorf("%d tables not matched to a job", s.UnmatchedTables)
	}
	var sum uint64
	for _, ts := range s.Tiers {
		sum += ts.Bytes
	}
	var idSum uint64
	for _, is := range s.IDs {
		idSum += is.Bytes
	}
	if sum != s.TotalBytes || idSum != s.TotalBytes || s.TotalBytes != uint64(mem.written.Load()) {
		t.Errorf("tiers sum %d, ids sum %d, total %d, bytes written to the FS %d", sum, idSum, s.TotalBytes, mem.written.Load())
	}
	t.Logf("tiers: %v", got)
}

func hintsSupported(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "probe")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := SetHint(f.Fd(), 2); err != nil {
		t.Skipf("F_SET_RW_HINT not supported here: %v", err)
	}
}

func readEvents(t *testing.T, path string) []Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Event
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			t.Fatalf("event log line %d: %v: %s", line, err, sc.Text())
		}
		for _, k := range []string{"t_ns", "ev", "file", "tier", "id", "bytes", "ino"} {
			if _, ok := raw[k]; !ok {
				t.Fatalf("event log line %d lacks %q: %s", line, k, sc.Text())
			}
		}
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// TestHintsAndEventLog runs Pebble on the real file system in hints+log
// mode and checks, with F_GET_RW_HINT, that every live file carries the
// hint of its tier, and that the event log is well formed and agrees.
func TestHintsAndEventLog(t *testing.T) {
	hintsSupported(t)
	dir := filepath.Join(t.TempDir(), "db")
	logPath := filepath.Join(t.TempDir(), "events.jsonl")
	statsPath := filepath.Join(t.TempDir(), "stats.json")
	opt := smallOptions()
	fs, err := Install(opt, dir, Options{Mode: ModeHints | ModeLog, LogPath: logPath, StatsPath: statsPath})
	if err != nil {
		t.Fatal(err)
	}
	db, err := pebble.Open(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, db, 0, 20000)
	fill(t, db, 20000, 5000) // fresh L0 tables from a flush stay live
	// Closed, so that no background job creates (a table is unclassified,
	// without its hint, until its job is known) or removes files while the
	// directory and the log are compared. Hints live on in the inodes.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	names, _ := os.ReadDir(dir)
	tierOf := map[string]Tier{}
	for _, e := range readEvents(t, logPath) {
		switch e.Ev {
		case "create", "classify", "reuse", "open_rw":
			if e.Tier != "pending" {
				tr, err := ParseTier(e.Tier)
				if err != nil {
					t.Fatalf("event %+v: %v", e, err)
				}
				tierOf[filepath.Base(e.File)] = tr
			}
		}
	}
	checked := map[Tier]int{}
	for _, de := range names {
		name := de.Name()
		tr, ok := tierOf[name]
		if !ok {
			if strings.HasSuffix(name, ".sst") || strings.HasSuffix(name, ".log") {
				t.Errorf("%s has no event in the log", name)
			}
			continue
		}
		f, err := os.Open(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue // compacted away since the listing
		}
		if err != nil {
			t.Fatal(err)
		}
		h, err := GetHint(f.Fd())
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := uint64(DefaultTierMap[tr]); h != want {
			t.Errorf("%s (tier %v): hint %d, want %d", name, tr, h, want)
		}
		checked[tr]++
	}
	if checked[TierWAL] == 0 || checked[TierFlush]+checked[TierL0Cmp]+checked[TierMidCmp]+checked[TierDeep] == 0 {
		t.Errorf("too few files checked: %v", checked)
	}
	// Closing the database (its LOCK) finished the wrapper: stats on disk,
	// log closed with a finish record.
	s, err := ReadStatsFile(statsPath)
	if err != nil {
		t.Fatal(err)
	}
	if s.HintErrors != 0 || s.UnmatchedTables != 0 || s.TotalBytes == 0 {
		t.Errorf("stats: %+v", s)
	}
	evs := readEvents(t, logPath)
	if last := evs[len(evs)-1]; last.Ev != "finish" || uint64(last.Bytes) != s.TotalBytes {
		t.Errorf("last event %+v, want finish with %d bytes", last, s.TotalBytes)
	}
	// Each closed file's bytes, summed per tier, fit within the counters.
	closed := map[string]uint64{}
	var prev int64
	for _, e := range evs {
		if e.TimeNs <= 0 {
			t.Errorf("event without time: %+v", e)
		}
		if e.TimeNs < prev-int64(time.Second) {
			t.Errorf("event time goes back: %+v", e)
		}
		prev = e.TimeNs
		if e.Ev == "close" {
			closed[e.Tier] += uint64(e.Bytes)
		}
	}
	for tier, n := range closed {
		if got := tierBytes(s)[tier]; n > got {
			t.Errorf("tier %s: closed files hold %d bytes, counters say %d", tier, n, got)
		}
	}
	_ = fs
}

// TestNonFDPCollapses checks that non-FDP mode gives every file one hint.
func TestNonFDPCollapses(t *testing.T) {
	hintsSupported(t)
	dir := filepath.Join(t.TempDir(), "db")
	opt := smallOptions()
	if _, err := Install(opt, dir, Options{NonFDP: true, SingleID: 4, StatsPath: "-"}); err != nil {
		t.Fatal(err)
	}
	db, err := pebble.Open(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, db, 0, 10000)
	// Closed first: a table being written is unclassified (no hint yet).
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	names, _ := os.ReadDir(dir)
	n := 0
	for _, de := range names {
		if !strings.HasSuffix(de.Name(), ".sst") && !strings.HasSuffix(de.Name(), ".log") && !strings.HasPrefix(de.Name(), "MANIFEST") {
			continue
		}
		f, _ := os.Open(filepath.Join(dir, de.Name()))
		h, err := GetHint(f.Fd())
		f.Close()
		if err != nil || h != 4 {
			t.Errorf("%s: hint %d (%v), want 4", de.Name(), h, err)
		}
		n++
	}
	if n < 3 {
		t.Errorf("only %d files checked", n)
	}
}

// TestDirsMode checks the per-ID directory layout: tables and WALs are
// symlinks into <root>/p<id>, data survives a reopen, and removed tables
// leave no orphans behind.
func TestDirsMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	root := filepath.Join(t.TempDir(), "tiers")
	logPath := filepath.Join(t.TempDir(), "events.jsonl")
	opt := smallOptions()
	fs, err := Install(opt, dir, Options{Mode: ModeDirs | ModeLog, DirRoot: root, LogPath: logPath, StatsPath: "-", AncientDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	db, err := pebble.Open(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, db, 0, 20000)
	fill(t, db, 20000, 3000)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if s := fs.Stats(); s.HintErrors != 0 {
		t.Fatalf("placement errors: %d, last %s", s.HintErrors, s.LastHintError)
	}
	tierOf := map[string]Tier{}
	for _, e := range readEvents(t, logPath) {
		if e.Ev == "classify" || e.Ev == "create" || e.Ev == "reuse" {
			if tr, err := ParseTier(e.Tier); err == nil {
				tierOf[filepath.Base(e.File)] = tr
			}
		}
	}
	live := map[string]bool{}
	names, _ := os.ReadDir(dir)
	links := 0
	for _, de := range names {
		p := filepath.Join(dir, de.Name())
		fi, _ := os.Lstat(p)
		isTable := strings.HasSuffix(de.Name(), ".sst") || strings.HasSuffix(de.Name(), ".log")
		if fi.Mode()&os.ModeSymlink == 0 {
			if isTable {
				t.Errorf("%s is not a symlink", de.Name())
			}
			continue
		}
		target, _ := os.Readlink(p)
		want := filepath.Join(root, fmt.Sprintf("p%d", DefaultTierMap[tierOf[de.Name()]]))
		if filepath.Dir(target) != want {
			t.Errorf("%s (tier %v) -> %s, want under %s", de.Name(), tierOf[de.Name()], target, want)
		}
		live[target] = true
		links++
	}
	if links == 0 {
		t.Fatal("no symlinks")
	}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !live[p] {
			t.Errorf("orphan %s", p)
		}
		return nil
	})

	// Reopen without the wrapper: every key is there.
	db, err = pebble.Open(dir, &pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, j := range []int{0, 12345, 22999} {
		k := []byte(fmt.Sprintf("key-%08d", (j*7919)%1000003))
		v, c, err := db.Get(k)
		if err != nil {
			t.Fatalf("key %d: %v", j, err)
		}
		if !strings.HasPrefix(string(v), fmt.Sprintf("value-%d", j)) {
			t.Errorf("key %d: value %q", j, v[:16])
		}
		c.Close()
	}
}

// TestAncientWatcher checks hint-by-path for files geth writes itself,
// including a directory that does not exist when the watcher starts.
func TestAncientWatcher(t *testing.T) {
	hintsSupported(t)
	base := t.TempDir()
	anc := filepath.Join(base, "ancient")
	statsPath := filepath.Join(base, "stats.json")
	fs, err := New(vfs.Default, base, Options{AncientDirs: []string{anc}, AncientRescan: 50 * time.Millisecond, StatsPath: statsPath})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(anc, "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	var files []*os.File
	for i, name := range []string{"state/history.rdat", "state/history.ridx", "chain.meta"} {
		f, err := os.Create(filepath.Join(anc, name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(make([]byte, 1000*(i+1))); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, f := range files {
		for {
			h, err := GetHint(f.Fd())
			if err != nil {
				t.Fatal(err)
			}
			if h == uint64(DefaultTierMap[TierAncient]) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: hint %d after 5s", f.Name(), h)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if _, err := files[0].Write(make([]byte, 500)); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		f.Close()
	}
	if err := fs.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := ReadStatsFile(statsPath)
	if err != nil {
		t.Fatal(err)
	}
	if got := tierBytes(s)["ancient"]; got != 6500 {
		t.Errorf("ancient bytes %d, want 6500", got)
	}
}

// TestSetHintRejectsBadValue pins the kernel interface the package relies on.
func TestSetHintRejectsBadValue(t *testing.T) {
	hintsSupported(t)
	f, err := os.CreateTemp(t.TempDir(), "h")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := SetHint(f.Fd(), MaxHint+1); !errors.Is(err, syscall.EINVAL) {
		t.Errorf("SetHint(%d) = %v, want EINVAL", MaxHint+1, err)
	}
	for h := uint64(0); h <= MaxHint; h++ {
		if err := SetHint(f.Fd(), h); err != nil {
			t.Fatal(err)
		}
		if got, err := GetHint(f.Fd()); err != nil || got != h {
			t.Errorf("GetHint = %d, %v; want %d", got, err, h)
		}
	}
}

// TestStatsCoverEveryOpen: two opens that write the same stats file (as
// geth's repeated opens of chaindata do) share one set of counters.
func TestStatsCoverEveryOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	statsPath := filepath.Join(t.TempDir(), "stats.json")
	var want uint64
	for i := 0; i < 2; i++ {
		opt := smallOptions()
		fs, err := Install(opt, dir, Options{Mode: ModeNone, StatsPath: statsPath, AncientDirs: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		before := fs.Stats().TotalBytes
		db, err := pebble.Open(dir, opt)
		if err != nil {
			t.Fatal(err)
		}
		fill(t, db, i*5000, 5000)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		s, err := ReadStatsFile(statsPath)
		if err != nil {
			t.Fatal(err)
		}
		if s.TotalBytes <= before {
			t.Fatalf("open %d: stats total %d, was %d", i, s.TotalBytes, before)
		}
		want = s.TotalBytes
	}
	if s, _ := ReadStatsFile(statsPath); s.TotalBytes != want || want == 0 {
		t.Errorf("stats %d, want %d", s.TotalBytes, want)
	}
}

// TestPageBytes: page_bytes counts the distinct 4 KiB pages written through
// each handle, a partial last page as a whole one (hand-computed sizes).
func TestPageBytes(t *testing.T) {
	mem := vfs.NewMem()
	if err := mem.MkdirAll("/db", 0o755); err != nil {
		t.Fatal(err)
	}
	fs, err := New(mem, "/db", Options{Mode: ModeNone, StatsPath: "-", AncientDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	wal, _ := fs.Create("/db/000002.log")
	write(t, wal, 5000) // pages 0, 1
	write(t, wal, 3000) // page 1 again
	wf := wal.(*File)
	if _, err := wf.WriteAt(make([]byte, 10), 100000); err != nil { // page 24
		t.Fatal(err)
	}
	if _, err := wf.WriteAt(make([]byte, 4097), 4096*30-1); err != nil { // [122879, 126976): pages 29, 30
		t.Fatal(err)
	}
	// A sync with a partial last page (the sequential prefix ends at 8000, in page 1),
	// then a write into that page: page 1 is written again.
	if err := wf.Sync(); err != nil {
		t.Fatal(err)
	}
	write(t, wal, 10) // [8000, 8010): page 1 again
	write(t, wal, 10) // the same page, not synced in between: no extra
	wal.Close()
	man, _ := fs.Create("/db/MANIFEST-000001")
	write(t, man, 1) // page 0
	man.Close()
	s := fs.Stats()
	for _, ts := range s.Tiers {
		want := map[string]uint64{"wal": 6 * 4096, "meta": 4096}[ts.Tier]
		if ts.PageBytes != want {
			t.Errorf("%s: page_bytes %d, want %d", ts.Tier, ts.PageBytes, want)
		}
	}
	if got := pageSpan(4095, 4097); got != 2*4096 {
		t.Errorf("pageSpan(4095, 4097) = %d", got)
	}
	if got := pageSpan(8192, 8192); got != 0 {
		t.Errorf("pageSpan(8192, 8192) = %d", got)
	}
}

// TestDirsModeSyncsWhenPebbleDoes checks that dirs mode syncs a placement
// directory only when Pebble syncs a directory of its own (before that sync,
// so the real entry is durable first), not once per file it places.
func TestDirsModeSyncsWhenPebbleDoes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	root := filepath.Join(t.TempDir(), "tiers")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fs, err := New(nil, dir, Options{Mode: ModeDirs, DirRoot: root, StatsPath: "-", AncientDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	var synced []string
	fs.syncDirFn = func(d string) error { synced = append(synced, d); return syncDir(d) }
	walDir := fs.dirFor(fs.ID(TierWAL))
	for _, name := range []string{"000001.log", "000002.log"} {
		f, err := fs.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if len(synced) != 0 {
		t.Fatalf("placement directories synced before Pebble synced its own: %v", synced)
	}
	d, err := fs.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 1 || synced[0] != walDir {
		t.Fatalf("one Pebble directory sync after two WALs: placement syncs %v, want [%s]", synced, walDir)
	}
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 1 {
		t.Fatalf("a sync with no new entry synced placement directories again: %v", synced)
	}
	if err := fs.Remove(filepath.Join(dir, "000001.log")); err != nil {
		t.Fatal(err)
	}
	if err := fs.Close(); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 2 || synced[1] != walDir {
		t.Fatalf("Close after a removal: placement syncs %v, want a second sync of %s", synced, walDir)
	}
}

// TestDirsModePebbleSyncCount runs Pebble in dirs mode: placement
// directories are synced (Pebble syncs its directory after placing files),
// and none is left pending after Close.
func TestDirsModePebbleSyncCount(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	root := filepath.Join(t.TempDir(), "tiers")
	opt := smallOptions()
	fs, err := Install(opt, dir, Options{Mode: ModeDirs, DirRoot: root, StatsPath: "-", AncientDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	syncs := 0
	fs.syncDirFn = func(d string) error { syncs++; return syncDir(d) }
	db, err := pebble.Open(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, db, 0, 20000)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fs.Close(); err != nil {
		t.Fatal(err)
	}
	if syncs == 0 {
		t.Fatal("no placement directory was synced")
	}
	if len(fs.dirty) != 0 {
		t.Fatalf("placement directories left unsynced after Close: %v", fs.dirty)
	}
}
