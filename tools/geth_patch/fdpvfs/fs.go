package fdpvfs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"
)

// FS wraps a vfs.FS for one Pebble database directory. Methods it does not
// override pass straight through to the wrapped FS.
//
// Tables (*.sst) are created before Pebble says which job writes them: Create
// registers the file as pending, and the TableCreated event that Pebble sends
// right after Create and before any data is written classifies it by the
// tier recorded for that job at FlushBegin/CompactionBegin. Every other file
// is classified by name at open.
type FS struct {
	vfs.FS
	dir  string  // Pebble's directory, as given
	opts Options // defaults filled in
	c    *counters
	log  *eventLog

	mu       sync.Mutex
	jobs     map[int]Tier     // in-flight flush/compaction job -> output tier
	pending  map[string]*File // tables not classified yet, by cleaned path
	watcher  *ancientWatcher
	finished bool
	extras   map[string]string

	// Dirs mode: placement directories with entries not yet synced, synced
	// when Pebble syncs a directory of its own (see OpenDir), so that the
	// mode asks the file system for no sync Pebble did not ask for.
	syncMu    sync.Mutex // held while syncing: a sync covers what was marked before it
	dirty     map[string]bool
	syncDirFn func(string) error // syncDir; tests count the calls
}

// New wraps inner (vfs.Default when nil) for the Pebble database in dir.
// The caller must also install EventListener (Install does both).
func New(inner vfs.FS, dir string, o Options) (*FS, error) {
	if inner == nil {
		inner = vfs.Default
	}
	o = o.withDefaults(dir)
	if err := o.Validate(); err != nil {
		return nil, err
	}
	fs := &FS{
		FS:        inner,
		dir:       dir,
		opts:      o,
		c:         countersFor(o.StatsPath),
		jobs:      map[int]Tier{},
		pending:   map[string]*File{},
		dirty:     map[string]bool{},
		syncDirFn: syncDir,
	}
	if o.Mode&ModeDirs != 0 {
		root, err := filepath.Abs(o.DirRoot)
		if err != nil {
			return nil, err
		}
		fs.opts.DirRoot = root
		dirs := map[uint8]string{}
		for id, d := range o.Dirs {
			if dirs[id], err = filepath.Abs(d); err != nil {
				return nil, err
			}
		}
		fs.opts.Dirs = dirs
		for t := Tier(0); t < NumTiers; t++ {
			if fs.redirected(t) {
				if err := os.MkdirAll(fs.dirFor(fs.opts.ID(t)), 0o755); err != nil {
					return nil, fmt.Errorf("fdpvfs: dirs mode: %w", err)
				}
			}
		}
	}
	if o.Mode&ModeLog != 0 {
		l, err := openEventLog(o.LogPath)
		if err != nil {
			return nil, fmt.Errorf("fdpvfs: event log: %w", err)
		}
		fs.log = l
	}
	if len(o.AncientDirs) > 0 {
		fs.watcher = startAncientWatcher(fs, o.AncientDirs, o.AncientRescan)
	}
	return fs, nil
}

// Install wraps opt.FS (vfs.Default when nil) for the database in dir and
// tees the wrapper's listener into opt.EventListener. Stats are written when
// Pebble releases the database's LOCK at Close.
func Install(opt *pebble.Options, dir string, o Options) (*FS, error) {
	fs, err := New(opt.FS, dir, o)
	if err != nil {
		return nil, err
	}
	opt.FS = fs
	ours := fs.EventListener()
	if opt.EventListener == nil {
		opt.EventListener = &ours
	} else {
		tee := pebble.TeeEventListener(*opt.EventListener, ours)
		opt.EventListener = &tee
	}
	return fs, nil
}

// Options returns the options in force (defaults filled in).
func (fs *FS) Options() Options { return fs.opts }

// ID returns the placement ID of tier t.
func (fs *FS) ID(t Tier) uint8 { return fs.opts.ID(t) }

// EventListener returns the listener that tells the wrapper each new table's
// tier. It must be installed in the same pebble.Options (see Install).
func (fs *FS) EventListener() pebble.EventListener {
	return pebble.EventListener{
		FlushBegin: func(info pebble.FlushInfo) { fs.beginJob(info.JobID, TierFlush) },
		FlushEnd:   func(info pebble.FlushInfo) { fs.endJob(info.JobID) },
		CompactionBegin: func(info pebble.CompactionInfo) {
			first := info.Output.Level
			if len(info.Input) > 0 {
				first = info.Input[0].Level
			}
			fs.beginJob(info.JobID, TierForCompaction(first, info.Output.Level))
		},
		CompactionEnd: func(info pebble.CompactionInfo) { fs.endJob(info.JobID) },
		TableCreated: func(info pebble.TableCreateInfo) {
			fs.tableCreated(info.JobID, info.Reason, info.Path)
		},
	}
}

func (fs *FS) beginJob(job int, t Tier) {
	fs.mu.Lock()
	fs.jobs[job] = t
	fs.mu.Unlock()
}

func (fs *FS) endJob(job int) {
	fs.mu.Lock()
	delete(fs.jobs, job)
	fs.mu.Unlock()
}

func (fs *FS) tableCreated(job int, reason, path string) {
	fs.mu.Lock()
	t, ok := fs.jobs[job]
	key := filepath.Clean(path)
	f := fs.pending[key]
	delete(fs.pending, key)
	fs.mu.Unlock()
	if !ok {
		fs.c.unmatchedTables.Add(1)
		t = TierDeep
		if reason == "flushing" {
			t = TierFlush
		}
	}
	if f == nil {
		// Created through another FS: nothing of ours to place.
		fs.log.add(Event{Ev: "classify", File: path, Tier: t.String(), ID: fs.ID(t), Job: job})
		return
	}
	fs.classify(f, t, "classify", job)
}

// redirected reports whether dirs mode moves files of tier t out of
// Pebble's directory. Metadata always stays (Pebble renames and syncs it in
// place); ancient and marker files are not Pebble's.
func (fs *FS) redirected(t Tier) bool {
	return fs.opts.Mode&ModeDirs != 0 && t <= TierDeep
}

// dirFor is the directory of placement ID id in dirs mode.
func (fs *FS) dirFor(id uint8) string {
	if d, ok := fs.opts.Dirs[id]; ok {
		return d
	}
	return filepath.Join(fs.opts.DirRoot, "p"+strconv.Itoa(int(id)))
}

// wrap returns our File around inner for path.
func (fs *FS) wrap(inner vfs.File, path string) *File {
	return &File{File: inner, fs: fs, path: path}
}

// classify fixes f's tier: places it (dirs, hints), starts counting its
// bytes under t and logs the event.
func (fs *FS) classify(f *File, t Tier, ev string, job int) {
	id := fs.ID(t)
	if ev == "classify" && fs.redirected(t) {
		if err := fs.relocate(f, id); err != nil {
			fs.noteHintError(fmt.Errorf("relocate %s: %w", f.path, err))
		}
	}
	f.setTier(t)
	fd := f.File.Fd()
	if fd != vfs.InvalidFd {
		if fs.opts.Mode&ModeHints != 0 {
			if err := SetHint(fd, uint64(id)); err != nil {
				fs.noteHintError(fmt.Errorf("F_SET_RW_HINT %s: %w", f.path, err))
			}
		}
		if fs.log != nil {
			f.ino = inodeOf(fd)
		}
	}
	fs.log.add(Event{Ev: ev, File: f.path, Tier: t.String(), ID: id, Ino: f.ino, Job: job})
}

func (fs *FS) noteHintError(err error) {
	fs.c.hintErrors.Add(1)
	fs.c.lastHintError.Store(err.Error())
}

// relocate moves a just-created, still empty table to the directory of id:
// the open fd is re-pointed (dup3) at a new file there, so Pebble, which
// cached the fd number, writes to it; Pebble's name becomes a symlink to it.
func (fs *FS) relocate(f *File, id uint8) error {
	fd := f.File.Fd()
	if fd == vfs.InvalidFd {
		return errors.New("dirs mode needs a file system with real file descriptors")
	}
	if n := f.written.Load(); n != 0 {
		return fmt.Errorf("table already has %d bytes", n)
	}
	dir := fs.dirFor(id)
	target := filepath.Join(dir, filepath.Base(f.path))
	if err := swapFD(fd, target); err != nil {
		return err
	}
	if err := replaceWithSymlink(f.path, target); err != nil {
		return err
	}
	fs.markDirty(dir)
	return nil
}

// createIn creates name's file in the directory of id and symlinks name to it.
func (fs *FS) createIn(id uint8, name string) (vfs.File, error) {
	dir := fs.dirFor(id)
	target := filepath.Join(dir, filepath.Base(name))
	f, err := fs.FS.Create(target)
	if err != nil {
		return nil, err
	}
	if err := replaceWithSymlink(name, target); err != nil {
		f.Close()
		return nil, err
	}
	fs.markDirty(dir)
	return f, nil
}

// markDirty notes a new, renamed or removed entry in placement directory dir.
func (fs *FS) markDirty(dir string) {
	fs.mu.Lock()
	fs.dirty[dir] = true
	fs.mu.Unlock()
}

// syncPlacementDirs syncs every placement directory marked since the last
// call. Pebble syncs its own directory after it created a file and before it
// relies on the entry (e.g. before a MANIFEST names a new table), and the
// file's real entry is in a placement directory: it must be durable first.
// Syncing each at once instead made one more sync per table, and on F2FS a
// directory's fsync is a checkpoint.
func (fs *FS) syncPlacementDirs() error {
	fs.syncMu.Lock()
	defer fs.syncMu.Unlock()
	fs.mu.Lock()
	dirs := make([]string, 0, len(fs.dirty))
	for d := range fs.dirty {
		dirs = append(dirs, d)
	}
	fs.dirty = map[string]bool{}
	fs.mu.Unlock()
	sort.Strings(dirs)
	var errs []error
	for _, d := range dirs {
		if err := fs.syncDirFn(d); err != nil {
			fs.markDirty(d)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// OpenDir opens a directory of Pebble's; in dirs mode its Sync first syncs
// the placement directories that hold the real entries of its symlinks.
func (fs *FS) OpenDir(name string) (vfs.File, error) {
	d, err := fs.FS.OpenDir(name)
	if err != nil || fs.opts.Mode&ModeDirs == 0 {
		return d, err
	}
	return &dirFile{File: d, fs: fs}, nil
}

// dirFile is a directory of Pebble's in dirs mode (see OpenDir).
type dirFile struct {
	vfs.File
	fs *FS
}

func (d *dirFile) Sync() error {
	if err := d.fs.syncPlacementDirs(); err != nil {
		return err
	}
	return d.File.Sync()
}

// ourLink returns the target of name when name is a symlink into one of the
// dirs-mode directories.
func (fs *FS) ourLink(name string) (string, bool) {
	if fs.opts.Mode&ModeDirs == 0 {
		return "", false
	}
	fi, err := os.Lstat(name)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return "", false
	}
	target, err := os.Readlink(name)
	if err != nil {
		return "", false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(name), target)
	}
	under := func(root string) bool {
		rel, err := filepath.Rel(root, target)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	if under(fs.opts.DirRoot) {
		return target, true
	}
	for _, d := range fs.opts.Dirs {
		if under(d) {
			return target, true
		}
	}
	return "", false
}

// Create creates a file for writing; see the FS comment for classification.
func (fs *FS) Create(name string) (vfs.File, error) {
	t, known := TierForName(name)
	var inner vfs.File
	var err error
	if known && fs.redirected(t) {
		inner, err = fs.createIn(fs.ID(t), name)
	} else {
		inner, err = fs.FS.Create(name)
	}
	if err != nil {
		return nil, err
	}
	f := fs.wrap(inner, name)
	if known {
		fs.classify(f, t, "create", 0)
		return f, nil
	}
	fs.mu.Lock()
	fs.pending[filepath.Clean(name)] = f
	fs.mu.Unlock()
	fs.log.add(Event{Ev: "create", File: name, Tier: "pending"})
	return f, nil
}

// ReuseForWrite renames a recycled WAL to newname and opens it for writing.
func (fs *FS) ReuseForWrite(oldname, newname string) (vfs.File, error) {
	var inner vfs.File
	var err error
	if target, ok := fs.ourLink(oldname); ok {
		newTarget := filepath.Join(filepath.Dir(target), filepath.Base(newname))
		fs.markDirty(filepath.Dir(target))
		if err = os.Rename(target, newTarget); err == nil {
			if err = replaceWithSymlink(newname, newTarget); err == nil {
				err = os.Remove(oldname)
			}
		}
		if err != nil {
			return nil, err
		}
		inner, err = fs.FS.OpenReadWrite(newname)
	} else {
		inner, err = fs.FS.ReuseForWrite(oldname, newname)
	}
	if err != nil {
		return nil, err
	}
	f := fs.wrap(inner, newname)
	t, _ := TierForName(newname)
	fs.classify(f, t, "reuse", 0)
	return f, nil
}

// OpenReadWrite opens (creating if needed) a file for reading and writing.
func (fs *FS) OpenReadWrite(name string, opts ...vfs.OpenOption) (vfs.File, error) {
	inner, err := fs.FS.OpenReadWrite(name, opts...)
	if err != nil {
		return nil, err
	}
	f := fs.wrap(inner, name)
	t, _ := TierForName(name) // a table opened this way counts as deep
	fs.classify(f, t, "open_rw", 0)
	return f, nil
}

// Remove removes a file, and in dirs mode the file its symlink points at.
func (fs *FS) Remove(name string) error {
	if target, ok := fs.ourLink(name); ok {
		if err := os.Remove(target); err != nil && !os.IsNotExist(err) {
			return err
		}
		fs.markDirty(filepath.Dir(target))
	}
	err := fs.FS.Remove(name)
	if err == nil && fs.log != nil {
		t, _ := TierForName(name)
		fs.log.add(Event{Ev: "remove", File: name, Tier: t.String(), ID: fs.ID(t)})
	}
	return err
}

// Rename renames a file (metadata temp files, in practice).
func (fs *FS) Rename(oldname, newname string) error {
	err := fs.FS.Rename(oldname, newname)
	if err == nil && fs.log != nil {
		t, _ := TierForName(newname)
		fs.log.add(Event{Ev: "rename", File: newname, From: oldname, Tier: t.String(), ID: fs.ID(t)})
	}
	return err
}

// Lock takes the database lock; releasing it (the last step of pebble's
// DB.Close that matters here) finishes the wrapper and writes the stats.
func (fs *FS) Lock(name string) (io.Closer, error) {
	c, err := fs.FS.Lock(name)
	if err != nil {
		return nil, err
	}
	return &lockCloser{Closer: c, fs: fs}, nil
}

type lockCloser struct {
	io.Closer
	fs   *FS
	once sync.Once
}

func (l *lockCloser) Close() error {
	err := l.Closer.Close()
	l.once.Do(func() {
		if ferr := l.fs.Close(); err == nil {
			err = ferr
		}
	})
	return err
}

// AddBytes counts n bytes written to tier t by a file outside Pebble (e.g.
// ethstate's markers); newFile also counts one file.
func (fs *FS) AddBytes(t Tier, n uint64, newFile bool) {
	fs.c.bytes[t].Add(n)
	fs.c.pageBytes[t].Add((n + pageSize - 1) / pageSize * pageSize)
	if newFile {
		fs.c.files[t].Add(1)
	}
}

// PlaceFile gives a file outside Pebble the placement of tier t: in hints
// mode it sets the hint on fd; in log mode it logs a create event.
func (fs *FS) PlaceFile(fd uintptr, path string, t Tier) error {
	id := fs.ID(t)
	var err error
	if fs.opts.Mode&ModeHints != 0 {
		if err = SetHint(fd, uint64(id)); err != nil {
			fs.noteHintError(fmt.Errorf("F_SET_RW_HINT %s: %w", path, err))
		}
	}
	fs.log.add(Event{Ev: "create", File: path, Tier: t.String(), ID: id, Ino: inodeOf(fd)})
	return err
}

// Stats returns the counters now.
func (fs *FS) Stats() Stats {
	s := fs.c.snapshot(&fs.opts, fs.dir, MonotonicNs())
	s.Extra = fs.extra()
	return s
}

// SetExtra records a key/value pair that Stats reports under "extra"
// (ethstate puts its run parameters there).
func (fs *FS) SetExtra(key, value string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.extras == nil {
		fs.extras = map[string]string{}
	}
	fs.extras[key] = value
}

func (fs *FS) extra() map[string]string {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.extras) == 0 {
		return nil
	}
	out := make(map[string]string, len(fs.extras))
	for k, v := range fs.extras {
		out[k] = v
	}
	return out
}

// Close syncs the placement directories with entries not yet synced (dirs
// mode), stops the ancient watcher (after a final scan), closes the event log
// and writes the stats file. It is idempotent except that each call rewrites
// the stats with the counters of that moment. It does not close the wrapped FS.
func (fs *FS) Close() error {
	fs.mu.Lock()
	first := !fs.finished
	fs.finished = true
	fs.mu.Unlock()
	errs := []error{fs.syncPlacementDirs()}
	if first {
		fs.watcher.stop()
	} else {
		fs.watcher.finalScan()
	}
	s := fs.Stats()
	s.Extra = fs.extra()
	if first && fs.log != nil {
		fs.log.add(Event{Ev: "finish", File: fs.dir, Tier: "all", Bytes: int64(s.TotalBytes)})
		errs = append(errs, fs.log.close())
	}
	if fs.opts.StatsPath != "-" {
		errs = append(errs, WriteStatsFile(fs.opts.StatsPath, s))
	}
	return errors.Join(errs...)
}

// pageSize is the page the file system writes back (and a block trace sees).
const pageSize = 4096

// pageSpan is the size of the 4 KiB pages that growth from base to size touches.
func pageSpan(base, size int64) uint64 {
	if size <= base {
		return 0
	}
	return uint64(((size+pageSize-1)/pageSize - base/pageSize) * pageSize)
}

// File is a file opened for writing through FS. It counts the bytes written
// through it under its tier (under "pending" until a table is classified).
type File struct {
	vfs.File
	fs   *FS
	path string
	ino  uint64

	tier       atomic.Uint32
	classified atomic.Bool
	written    atomic.Int64

	mu      sync.Mutex
	pending uint64 // bytes written before classification
	closed  bool
	pos     int64          // Write's offset (handles start at offset 0)
	pages   map[int64]bool // 4 KiB pages written through this handle, for non-sequential writes
	seqEnd  int64          // end of the prefix written sequentially from 0
	// A full sync writes a partly filled last page; writing into that page
	// again writes it to the device again. syncedTail is that page + 1 (0:
	// none), rewrites the bytes of such second writes.
	syncedTail int64
	rewrites   uint64
}

func (f *File) setTier(t Tier) {
	f.mu.Lock()
	f.tier.Store(uint32(t))
	f.classified.Store(true)
	n := f.pending
	f.pending = 0
	f.mu.Unlock()
	f.fs.c.files[t].Add(1)
	f.fs.c.bytes[t].Add(n)
}

func (f *File) account(n int) {
	if n <= 0 {
		return
	}
	f.written.Add(int64(n))
	if f.classified.Load() {
		f.fs.c.bytes[f.tier.Load()].Add(uint64(n))
		return
	}
	f.mu.Lock()
	if !f.classified.Load() {
		f.pending += uint64(n)
		f.mu.Unlock()
		return
	}
	f.mu.Unlock()
	f.fs.c.bytes[f.tier.Load()].Add(uint64(n))
}

// touch records that [off, off+n) was written, for the page count: a
// prefix written sequentially from 0 is one number, anything else a page set.
func (f *File) touch(off int64, n int) {
	if n <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	end := off + int64(n)
	if t := f.syncedTail - 1; t >= 0 && off < (t+1)*pageSize && end > t*pageSize {
		f.rewrites += pageSize
		f.syncedTail = 0
	}
	if off <= f.seqEnd {
		f.seqEnd = max(f.seqEnd, end)
		return
	}
	if f.pages == nil {
		f.pages = map[int64]bool{}
	}
	for p := off / pageSize; p*pageSize < end; p++ {
		f.pages[p] = true
	}
}

// pageBytes is the size of the distinct 4 KiB pages written, plus a page for
// each rewrite of a partial last page after a full sync.
func (f *File) pageBytes() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	seqPages := (f.seqEnd + pageSize - 1) / pageSize
	n := seqPages
	for p := range f.pages {
		if p >= seqPages {
			n++
		}
	}
	return uint64(n*pageSize) + f.rewrites
}

// synced notes a full sync: a partly written last page reached the device.
func (f *File) synced() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.seqEnd%pageSize != 0 {
		f.syncedTail = f.seqEnd/pageSize + 1
	}
}

// Sync syncs the file (and notes a partial last page, see synced).
func (f *File) Sync() error {
	err := f.File.Sync()
	if err == nil {
		f.synced()
	}
	return err
}

// SyncData syncs the file's data (and notes a partial last page).
func (f *File) SyncData() error {
	err := f.File.SyncData()
	if err == nil {
		f.synced()
	}
	return err
}

// Write writes p and counts the bytes written.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.mu.Lock()
	off := f.pos
	f.pos += int64(max(n, 0))
	f.mu.Unlock()
	f.touch(off, n)
	f.account(n)
	return n, err
}

// WriteAt writes p at off and counts the bytes written.
func (f *File) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	f.touch(off, n)
	f.account(n)
	return n, err
}

// Close closes the file; a table never classified counts as deep.
func (f *File) Close() error {
	f.mu.Lock()
	already := f.closed
	f.closed = true
	f.mu.Unlock()
	if already {
		return f.File.Close()
	}
	if !f.classified.Load() {
		f.fs.mu.Lock()
		delete(f.fs.pending, filepath.Clean(f.path))
		f.fs.mu.Unlock()
		f.fs.c.unmatchedTables.Add(1)
		f.fs.classify(f, TierDeep, "unmatched", 0)
	}
	f.fs.c.pageBytes[f.tier.Load()].Add(f.pageBytes())
	err := f.File.Close()
	if f.fs.log != nil {
		t := Tier(f.tier.Load())
		f.fs.log.add(Event{Ev: "close", File: f.path, Tier: t.String(), ID: f.fs.ID(t), Bytes: f.written.Load(), Ino: f.ino})
	}
	return err
}

// replaceWithSymlink atomically makes name a symlink to target.
func replaceWithSymlink(name, target string) error {
	tmp := name + ".fdplink"
	_ = os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// syncDir fsyncs a directory so that a new entry in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
