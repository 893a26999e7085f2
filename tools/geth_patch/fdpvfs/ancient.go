package fdpvfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ancientWatcher gives geth's ancient/freezer files, which geth opens and
// writes itself, the ancient tier by path: it watches the ancient
// directories (inotify, plus a periodic rescan as a safety net), sets the
// hint on every file that appears there and accounts the growth of their
// sizes as the tier's bytes.
//
// The hint is an inode property that the kernel copies into each bio at
// write-back time, so setting it within milliseconds of the file's creation
// tags all of its data (write-back happens seconds later unless geth syncs
// at once).
type ancientWatcher struct {
	fs     *FS
	roots  []string
	rescan time.Duration

	mu       sync.Mutex
	ino      *os.File // inotify instance; nil when unavailable
	watched  map[int32]string
	wdOf     map[string]int32
	files    map[[2]uint64]*ancientFile // by (dev, ino)
	initial  bool
	reported uint64 // growth already added to the tier's counter
	// reportedPages: the same for the 4 KiB pages the growth touches.
	reportedPages uint64

	quit chan struct{}
	done chan struct{}
	once sync.Once
}

type ancientFile struct {
	path string
	base int64 // size when first seen if it existed before the watcher
	size int64
}

func startAncientWatcher(fs *FS, roots []string, rescan time.Duration) *ancientWatcher {
	w := &ancientWatcher{
		fs:      fs,
		rescan:  rescan,
		watched: map[int32]string{},
		wdOf:    map[string]int32{},
		files:   map[[2]uint64]*ancientFile{},
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	for _, r := range roots {
		if abs, err := filepath.Abs(r); err == nil {
			w.roots = append(w.roots, abs)
		}
	}
	if fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK); err == nil {
		w.ino = os.NewFile(uintptr(fd), "inotify")
	}
	w.initial = true
	w.scan()
	w.initial = false
	go w.loop()
	if w.ino != nil {
		go w.readEvents(w.ino)
	}
	return w
}

func (w *ancientWatcher) loop() {
	defer close(w.done)
	t := time.NewTicker(w.rescan)
	defer t.Stop()
	for {
		select {
		case <-w.quit:
			return
		case <-t.C:
			w.scan()
		}
	}
}

// readEvents rescans when something is created or moved in a watched
// directory that lies inside a root or on the way to one.
func (w *ancientWatcher) readEvents(ino *os.File) {
	buf := make([]byte, 64*1024)
	for {
		n, err := ino.Read(buf)
		if err != nil {
			return // closed by stop
		}
		relevant := false
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				name = strings.TrimRight(string(raw), "\x00")
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
			w.mu.Lock()
			dir := w.watched[ev.Wd]
			w.mu.Unlock()
			if dir != "" && w.relevant(filepath.Join(dir, name)) {
				relevant = true
			}
		}
		if relevant {
			w.scan()
		}
	}
}

// relevant reports whether p is inside a root or an ancestor of one.
func (w *ancientWatcher) relevant(p string) bool {
	for _, r := range w.roots {
		if within(r, p) || within(p, r) {
			return true
		}
	}
	return false
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func (w *ancientWatcher) addWatch(dir string) {
	if w.ino == nil {
		return
	}
	if _, ok := w.wdOf[dir]; ok {
		return
	}
	wd, err := unix.InotifyAddWatch(int(w.ino.Fd()), dir, unix.IN_CREATE|unix.IN_MOVED_TO|unix.IN_ONLYDIR)
	if err != nil {
		return
	}
	w.watched[int32(wd)] = dir
	w.wdOf[dir] = int32(wd)
}

// scan walks the roots: watches their directories (or, for a root that does
// not exist yet, its nearest existing ancestor), places new files and
// updates the tier's byte count.
func (w *ancientWatcher) scan() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, root := range w.roots {
		if _, err := os.Stat(root); err != nil {
			for p := filepath.Dir(root); ; p = filepath.Dir(p) {
				if fi, err := os.Stat(p); err == nil && fi.IsDir() {
					w.addWatch(p)
					break
				}
				if p == filepath.Dir(p) {
					break
				}
			}
			continue
		}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				w.addWatch(p)
				return nil
			}
			if d.Type()&fs.ModeType != 0 {
				return nil // not a regular file
			}
			w.visit(p)
			return nil
		})
	}
	var total, pages uint64
	for _, f := range w.files {
		if f.size > f.base {
			total += uint64(f.size - f.base)
			pages += pageSpan(f.base, f.size)
		}
	}
	if pages >= w.reportedPages {
		w.fs.c.pageBytes[TierAncient].Add(pages - w.reportedPages)
	} else {
		w.fs.c.pageBytes[TierAncient].Add(^(w.reportedPages - pages - 1))
	}
	w.reportedPages = pages
	// Report the change since the last scan: the counters may be shared
	// with earlier opens of the database (see countersFor).
	if total >= w.reported {
		w.fs.c.bytes[TierAncient].Add(total - w.reported)
	} else {
		w.fs.c.bytes[TierAncient].Add(^(w.reported - total - 1))
	}
	w.reported = total
}

func (w *ancientWatcher) visit(p string) {
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil {
		return
	}
	key := [2]uint64{uint64(st.Dev), st.Ino}
	if f, ok := w.files[key]; ok {
		f.size = st.Size
		return
	}
	f := &ancientFile{path: p, size: st.Size}
	if w.initial {
		f.base = st.Size
	}
	w.files[key] = f
	w.fs.c.files[TierAncient].Add(1)
	id := w.fs.ID(TierAncient)
	if w.fs.opts.Mode&ModeHints != 0 {
		fd, err := unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		if err == nil {
			if err := SetHint(uintptr(fd), uint64(id)); err != nil {
				w.fs.noteHintError(err)
			}
			unix.Close(fd)
		} else if err != syscall.ENOENT {
			w.fs.noteHintError(err)
		}
	}
	w.fs.log.add(Event{Ev: "ancient", File: p, Tier: TierAncient.String(), ID: id, Ino: st.Ino})
}

// finalScan updates the byte count once more (after stop, without inotify).
func (w *ancientWatcher) finalScan() {
	if w != nil {
		w.scan()
	}
}

// stop ends the watcher after a final scan and logs each file's growth.
func (w *ancientWatcher) stop() {
	if w == nil {
		return
	}
	w.once.Do(func() {
		close(w.quit)
		<-w.done
		w.mu.Lock()
		ino := w.ino
		w.ino = nil
		w.mu.Unlock()
		if ino != nil {
			ino.Close()
		}
		w.scan()
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.fs.log == nil {
			return
		}
		for k, f := range w.files {
			w.fs.log.add(Event{Ev: "ancient_end", File: f.path, Tier: TierAncient.String(), ID: w.fs.ID(TierAncient), Bytes: f.size - f.base, Ino: k[1]})
		}
	})
}
