package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/ethereum/go-ethereum/triedb/pathdb"
	"github.com/ftlsim/geth_patch/fdpvfs"
	"github.com/ftlsim/geth_patch/pebblekv"
	"github.com/ftlsim/geth_patch/workload"
)

func smallRun(t *testing.T, dir string, seed uint64, mode string) result {
	t.Helper()
	c := defaultConfig()
	c.DataDir = dir
	c.Mode = mode
	c.Progress = 0
	c.CacheMB = 16
	w := &c.Workload
	w.Blocks = 50
	w.Accounts = 500
	w.TxsPerBlock = 30
	w.SlotsPerBlock = 60
	w.Seed = seed
	res, err := run(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestEthstateDeterministic: the same seed gives the same final state root
// through Pebble and the wrapper; the result is durable and readable.
func TestEthstateDeterministic(t *testing.T) {
	a := smallRun(t, t.TempDir(), 42, "hints")
	b := smallRun(t, t.TempDir(), 42, "none")
	if a.Root != b.Root {
		t.Fatalf("same seed, roots %s and %s", a.Root.Hex(), b.Root.Hex())
	}
	c := smallRun(t, t.TempDir(), 43, "none")
	if c.Root == a.Root {
		t.Fatal("different seeds, same root")
	}

	// Reopen a's database without the wrapper and read the final state.
	kv, err := pebblekv.Open(filepath.Join(filepath.Dir(a.StatsPath), "chaindata"), pebblekv.Options(16))
	if err != nil {
		t.Fatal(err)
	}
	db := rawdb.NewDatabase(kv)
	defer db.Close()
	tdb := triedb.NewDatabase(db, &triedb.Config{PathDB: pathdb.ReadOnly})
	defer tdb.Close()
	sdb, err := state.New(a.Root, state.NewDatabase(tdb, nil))
	if err != nil {
		t.Fatalf("state at final root: %v", err)
	}
	if bal := sdb.GetBalance(workload.AccountAddress(42, 0)); bal.IsZero() {
		t.Error("account 0 has no balance")
	}
}

// TestEthstateOutputs checks the stats JSON and the marker sidecar.
func TestEthstateOutputs(t *testing.T) {
	dir := t.TempDir()
	res := smallRun(t, dir, 1, "hints,log")

	s, err := fdpvfs.ReadStatsFile(res.StatsPath)
	if err != nil {
		t.Fatal(err)
	}
	var sum uint64
	for _, ts := range s.Tiers {
		sum += ts.Bytes
	}
	if sum != s.TotalBytes || s.TotalBytes == 0 || s.Extra["root"] != res.Root.Hex() || s.Extra["blocks"] != "50" {
		t.Errorf("stats: total %d, tiers sum %d, extra %v", s.TotalBytes, sum, s.Extra)
	}
	tb := map[string]uint64{}
	for _, ts := range s.Tiers {
		tb[ts.Tier] = ts.Bytes
	}
	if want := uint64((kMarkerSlots + 51) * kMarkerSize); tb["marker"] != want {
		t.Errorf("marker bytes %d, want %d", tb["marker"], want)
	}
	if tb["wal"] == 0 || tb["meta"] == 0 {
		t.Errorf("tiers %v", tb)
	}

	f, err := os.Open(res.MarkersPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var block uint64
	var last int64
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			t.Fatalf("sidecar line %q", line)
		}
		ts, err1 := strconv.ParseInt(fields[0], 10, 64)
		n, err2 := strconv.ParseUint(fields[1], 10, 64)
		if err1 != nil || err2 != nil || n != block || ts < last || ts < s.StartNs || ts > s.EndNs {
			t.Fatalf("sidecar line %q (want block %d, time >= %d within [%d, %d])", line, block, last, s.StartNs, s.EndNs)
		}
		block++
		last = ts
	}
	if block != 51 {
		t.Errorf("%d markers, want 51", block)
	}
	if _, err := os.Stat(filepath.Join(dir, "fdp_events.jsonl")); err != nil {
		t.Errorf("event log: %v", err)
	}
}
