package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ftlsim/geth_patch/fdpvfs"
	"github.com/ftlsim/geth_patch/pebblekv"
	"github.com/ftlsim/geth_patch/workload"
	"golang.org/x/sys/unix"
)

// config is everything the flags set.
type config struct {
	DataDir     string
	Mode        string // hints | dirs | log | none, or a comma-separated set
	NonFDP      bool   // collapse every tier to SingleID
	SingleID    uint
	Map         string // tier=id overrides
	DirRoot     string
	LogPath     string
	StatsPath   string
	MarkersPath string
	MarkerSync  bool
	CacheMB     int
	History     bool
	Progress    uint64
	Workload    workload.Config
}

func defaultConfig() config {
	return config{Mode: "hints", MarkerSync: true, CacheMB: 128, Progress: 100, Workload: workload.Defaults()}
}

func (c *config) bind(fs *flag.FlagSet) {
	w := &c.Workload
	fs.StringVar(&c.DataDir, "datadir", c.DataDir, "data directory (required)")
	fs.Uint64Var(&w.Blocks, "blocks", w.Blocks, "blocks to commit after genesis")
	fs.IntVar(&w.Accounts, "accounts", w.Accounts, "accounts created at genesis")
	fs.IntVar(&w.Contracts, "contracts", w.Contracts, "contracts created at genesis (-1: accounts/20)")
	fs.IntVar(&w.TxsPerBlock, "txs-per-block", w.TxsPerBlock, "value transfers per block")
	fs.IntVar(&w.SlotsPerBlock, "slots-per-block", w.SlotsPerBlock, "contract storage writes per block")
	fs.Float64Var(&w.NewAccountRate, "new-account-rate", w.NewAccountRate, "chance a transfer pays a new account")
	fs.Float64Var(&w.NewContractRate, "new-contract-rate", w.NewContractRate, "chance per block of a new contract")
	fs.Float64Var(&w.NewSlotRate, "new-slot-rate", w.NewSlotRate, "chance a storage write creates a slot")
	fs.Float64Var(&w.DeleteSlotRate, "delete-slot-rate", w.DeleteSlotRate, "chance a storage write clears a slot")
	fs.Float64Var(&w.ZipfS, "zipf", w.ZipfS, "Zipf exponent of popularity (> 1)")
	fs.Float64Var(&w.RecentRate, "recent-rate", w.RecentRate, "chance a pick goes to one of the 1024 newest accounts")
	fs.IntVar(&w.BodyBytes, "body-bytes", w.BodyBytes, "random bytes stored per block (stand-in for bodies/receipts)")
	fs.Uint64Var(&w.Seed, "seed", w.Seed, "PRNG seed")
	fs.IntVar(&w.WriteBufferMB, "write-buffer-mb", w.WriteBufferMB, "pathdb write buffer in MB")
	fs.BoolVar(&c.History, "history", c.History, "keep pathdb state histories in a freezer under <datadir>/ancient (ancient tier)")
	fs.IntVar(&c.CacheMB, "cache", c.CacheMB, "Pebble cache in MB; memtables are cache/8 each, as in geth")
	fs.StringVar(&c.Mode, "mode", c.Mode, "placement: hints | dirs | log | none (or a comma-separated set)")
	fs.BoolVar(&c.NonFDP, "nonfdp", c.NonFDP, "non-FDP baseline: every tier gets --single-id")
	fs.UintVar(&c.SingleID, "single-id", c.SingleID, "the one ID of --nonfdp")
	fs.StringVar(&c.Map, "map", c.Map, "tier=id overrides, e.g. wal=1,flush=2 (default table in README)")
	fs.StringVar(&c.DirRoot, "dir-root", c.DirRoot, "dirs mode: root of the per-ID directories (default <datadir>/chaindata/fdp)")
	fs.StringVar(&c.LogPath, "log", c.LogPath, "log mode: JSONL event log (default <datadir>/fdp_events.jsonl)")
	fs.StringVar(&c.StatsPath, "stats", c.StatsPath, "per-tier stats JSON (default <datadir>/fdp_stats.json)")
	fs.StringVar(&c.MarkersPath, "markers", c.MarkersPath, "marker sidecar, '<t_ns> <block>' per line (default <datadir>/block_markers.txt)")
	fs.BoolVar(&c.MarkerSync, "marker-sync", c.MarkerSync, "fdatasync markers.log after each block's marker")
	fs.Uint64Var(&c.Progress, "progress", c.Progress, "print progress every N blocks (0: never)")
}

// result is what run reports.
type result struct {
	workload.Result
	Stats       fdpvfs.Stats
	StatsPath   string
	MarkersPath string
}

// kMarkerSlots 4 KiB slots make up markers.log; block n writes slot n mod kMarkerSlots.
const (
	kMarkerSlots = 64
	kMarkerSize  = 4096
)

func run(c config, progress io.Writer) (res result, err error) {
	if c.DataDir == "" {
		return res, errors.New("--datadir is required")
	}
	mode, err := fdpvfs.ParseMode(c.Mode)
	if err != nil {
		return res, err
	}
	tmap, err := fdpvfs.ParseTierMap(c.Map, fdpvfs.DefaultTierMap)
	if err != nil {
		return res, err
	}
	if c.SingleID > 255 {
		return res, fmt.Errorf("--single-id %d > 255", c.SingleID)
	}
	if err := c.Workload.Validate(); err != nil {
		return res, err
	}
	if err := os.MkdirAll(c.DataDir, 0o755); err != nil {
		return res, err
	}
	dataDir, err := filepath.Abs(c.DataDir)
	if err != nil {
		return res, err
	}
	chaindata := filepath.Join(dataDir, "chaindata")
	ancient := filepath.Join(dataDir, "ancient")
	res.StatsPath = orDefault(c.StatsPath, filepath.Join(dataDir, "fdp_stats.json"))
	res.MarkersPath = orDefault(c.MarkersPath, filepath.Join(dataDir, "block_markers.txt"))

	opts := fdpvfs.Options{
		Mode:        mode,
		Map:         &tmap,
		NonFDP:      c.NonFDP,
		SingleID:    uint8(c.SingleID),
		DirRoot:     c.DirRoot,
		LogPath:     orDefault(c.LogPath, filepath.Join(dataDir, "fdp_events.jsonl")),
		StatsPath:   "-", // written below, once the markers are counted too
		AncientDirs: []string{},
	}
	if c.History {
		opts.AncientDirs = []string{ancient}
	}
	popt := pebblekv.Options(c.CacheMB)
	vfs, err := fdpvfs.Install(popt, chaindata, opts)
	if err != nil {
		return res, err
	}
	defer vfs.Close()
	w := c.Workload
	for k, v := range map[string]string{
		"program": "ethstate", "blocks": strconv.FormatUint(w.Blocks, 10), "seed": strconv.FormatUint(w.Seed, 10),
		"accounts": strconv.Itoa(w.Accounts), "txs_per_block": strconv.Itoa(w.TxsPerBlock),
		"slots_per_block": strconv.Itoa(w.SlotsPerBlock), "history": strconv.FormatBool(c.History),
		"markers_sidecar": res.MarkersPath,
	} {
		vfs.SetExtra(k, v)
	}

	kv, err := pebblekv.Open(chaindata, popt)
	if err != nil {
		return res, fmt.Errorf("open pebble: %w", err)
	}
	var db ethdb.Database
	if c.History {
		db, err = rawdb.Open(kv, rawdb.OpenOptions{Ancient: ancient})
		if err != nil {
			kv.Close()
			return res, fmt.Errorf("open freezer: %w", err)
		}
	} else {
		db = rawdb.NewDatabase(kv)
	}
	closeDB := func() error {
		if db == nil {
			return nil
		}
		err := db.Close()
		db = nil
		return err
	}
	defer closeDB()

	m, err := openMarkers(filepath.Join(dataDir, "markers.log"), res.MarkersPath, vfs, c.MarkerSync)
	if err != nil {
		return res, err
	}
	defer m.close()

	start := time.Now()
	wres, err := workload.Run(w, db, func(n uint64, root common.Hash) error {
		if err := m.mark(n, root); err != nil {
			return fmt.Errorf("block %d: marker: %w", n, err)
		}
		if c.Progress > 0 && n%c.Progress == 0 && progress != nil {
			s := vfs.Stats()
			fmt.Fprintf(progress, "block %d root %s %.1fs %d bytes\n", n, root.Hex(), time.Since(start).Seconds(), s.TotalBytes)
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	res.Result = wres
	vfs.SetExtra("root", wres.Root.Hex())
	if err := m.close(); err != nil {
		return res, err
	}
	if err := closeDB(); err != nil {
		return res, fmt.Errorf("close database: %w", err)
	}
	if err := vfs.Close(); err != nil {
		return res, err
	}
	res.Stats = vfs.Stats()
	if err := fdpvfs.WriteStatsFile(res.StatsPath, res.Stats); err != nil {
		return res, err
	}
	return res, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// markers writes the per-block markers: a 4 KiB record in markers.log
// (pwrite into a preallocated ring of kMarkerSlots slots, then fdatasync, so
// each marker is exactly one 4 KiB data write in the block trace, in the
// marker tier) and a "<t_ns> <block>" line in the sidecar, t_ns being
// CLOCK_MONOTONIC just before the pwrite.
type markers struct {
	f      *os.File
	side   *os.File
	sidew  *bufio.Writer
	vfs    *fdpvfs.FS
	sync   bool
	buf    []byte
	closed bool
}

func openMarkers(path, sidecar string, vfs *fdpvfs.FS, sync bool) (*markers, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	m := &markers{f: f, vfs: vfs, sync: sync, buf: make([]byte, kMarkerSize)}
	_ = vfs.PlaceFile(f.Fd(), path, fdpvfs.TierMarker) // a failure is counted in the stats (hint_errors)
	// Preallocate the ring with real data so later markers are overwrites:
	// fdatasync then needs no journal commit for a size change.
	ring := make([]byte, kMarkerSlots*kMarkerSize)
	if _, err := f.WriteAt(ring, 0); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	vfs.AddBytes(fdpvfs.TierMarker, uint64(len(ring)), true)
	var st unix.Stat_t
	_ = unix.Fstat(int(f.Fd()), &st)

	side, err := os.OpenFile(sidecar, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		f.Close()
		return nil, err
	}
	m.side = side
	m.sidew = bufio.NewWriter(side)
	fmt.Fprintf(m.sidew, "# ethstate markers v1: <t_ns CLOCK_MONOTONIC> <block>; markers_file=%s ino=%d id=%d slot_bytes=%d slots=%d\n",
		path, st.Ino, vfs.ID(fdpvfs.TierMarker), kMarkerSize, kMarkerSlots)
	return m, m.sidew.Flush()
}

func (m *markers) mark(n uint64, root common.Hash) error {
	for i := range m.buf {
		m.buf[i] = ' '
	}
	t := fdpvfs.MonotonicNs()
	rec := fmt.Sprintf("ethstate block %d t_ns %d root %s\n", n, t, root.Hex())
	copy(m.buf, rec)
	m.buf[len(m.buf)-1] = '\n'
	if _, err := m.f.WriteAt(m.buf, int64(n%kMarkerSlots)*kMarkerSize); err != nil {
		return err
	}
	m.vfs.AddBytes(fdpvfs.TierMarker, kMarkerSize, false)
	if m.sync {
		if err := unix.Fdatasync(int(m.f.Fd())); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintf(m.sidew, "%d %d\n", t, n); err != nil {
		return err
	}
	return m.sidew.Flush()
}

func (m *markers) close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	err := m.f.Close()
	if ferr := m.sidew.Flush(); err == nil {
		err = ferr
	}
	if cerr := m.side.Close(); err == nil {
		err = cerr
	}
	return err
}
