// Command ethstate drives go-ethereum's own StateDB (path scheme, pathdb)
// over Pebble opened through the fdpvfs wrapper: Ethereum-like account and
// storage updates with Zipf popularity and new accounts over time, committed
// block by block, with a marker per block so that a captured block trace can
// name the block at which the SSD's garbage collection starts.
//
// Layout of --datadir:
//
//	chaindata/          Pebble database (through fdpvfs)
//	ancient/state/      pathdb state-history freezer (only with --history)
//	markers.log         in-band markers: one 4 KiB pwrite+fdatasync per block (tier "marker")
//	block_markers.txt   marker sidecar (default --markers): "<t_ns> <block>" per line
//	fdp_stats.json      per-tier byte counts (default --stats)
//
// The same seed and size flags always produce the same sequence of state
// updates and so the same state roots.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	cfg := defaultConfig()
	fs := flag.NewFlagSet("ethstate", flag.ContinueOnError)
	cfg.bind(fs)
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "ethstate: unexpected arguments %q\n", fs.Args())
		os.Exit(2)
	}
	start := time.Now()
	res, err := run(cfg, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ethstate: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("ethstate: %d blocks in %.1fs, root %s, %d accounts (%d contracts), %d slots, %d bytes written through the wrapper\n",
		cfg.Workload.Blocks, time.Since(start).Seconds(), res.Root.Hex(), res.Accounts, res.Contracts, res.Slots, res.Stats.TotalBytes)
	for _, t := range res.Stats.Tiers {
		if t.Bytes > 0 || t.Files > 0 {
			fmt.Printf("  %-8s id %d  %12d bytes  %5d files  (%s)\n", t.Tier, t.ID, t.Bytes, t.Files, t.Method)
		}
	}
	fmt.Printf("  stats: %s\n  markers: %s\n", res.StatsPath, res.MarkersPath)
}
