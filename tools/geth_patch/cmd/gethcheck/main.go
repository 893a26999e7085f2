// Command gethcheck checks what a patched geth left behind (used by
// test.sh): the stats file has WAL bytes and no hint errors, and every file
// under the ancient directory carries the ancient tier's write hint.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ftlsim/geth_patch/fdpvfs"
)

func main() {
	statsPath := flag.String("stats", "", "fdp_stats.json written by the patched geth")
	ancient := flag.String("ancient", "", "ancient directory whose files must carry the ancient hint")
	flag.Parse()
	if err := check(*statsPath, *ancient); err != nil {
		fmt.Fprintf(os.Stderr, "gethcheck: %v\n", err)
		os.Exit(1)
	}
}

func check(statsPath, ancient string) error {
	s, err := fdpvfs.ReadStatsFile(statsPath)
	if err != nil {
		return err
	}
	m, err := fdpvfs.ParseTierMap(s.Map, fdpvfs.DefaultTierMap)
	if err != nil {
		return err
	}
	var wal uint64
	for _, t := range s.Tiers {
		if t.Tier == "wal" {
			wal = t.Bytes
		}
	}
	if wal == 0 || s.HintErrors != 0 || s.UnmatchedTables != 0 {
		return fmt.Errorf("%s: wal bytes %d, hint errors %d (%s), unmatched tables %d", statsPath, wal, s.HintErrors, s.LastHintError, s.UnmatchedTables)
	}
	n := 0
	err = filepath.WalkDir(ancient, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		h, err := fdpvfs.GetHint(f.Fd())
		if err != nil {
			return err
		}
		if want := uint64(m[fdpvfs.TierAncient]); h != want {
			return fmt.Errorf("%s: hint %d, want %d", p, h, want)
		}
		n++
		return nil
	})
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("no ancient files under %s", ancient)
	}
	fmt.Printf("gethcheck: %s: %d bytes (wal %d), %d ancient files hinted %d\n", statsPath, s.TotalBytes, wal, n, m[fdpvfs.TierAncient])
	return nil
}
