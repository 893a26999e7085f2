package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTwoRunsSameFiles: two runs with the same seed write byte-identical
// genesis.json and blocks-*.rlp (chaingen.json holds timings and differs),
// a third with another seed different blocks; an existing --out is refused.
func TestTwoRunsSameFiles(t *testing.T) {
	dir := t.TempDir()
	args := func(out, seed string) []string {
		return []string{"--out", filepath.Join(dir, out), "--blocks", "9", "--file-blocks", "4", "--seed", seed, "--quiet",
			"--genesis-accounts", "200", "--token-holders", "50", "--validators", "20", "--txs", "20", "--code-bytes", "300"}
	}
	for _, r := range [][2]string{{"a", "5"}, {"b", "5"}, {"c", "6"}} {
		if err := run(args(r[0], r[1])); err != nil {
			t.Fatalf("run %s: %v", r[0], err)
		}
	}
	files := []string{"genesis.json", "blocks-0001.rlp", "blocks-0002.rlp", "blocks-0003.rlp"}
	for _, f := range files {
		a, errA := os.ReadFile(filepath.Join(dir, "a", f))
		b, errB := os.ReadFile(filepath.Join(dir, "b", f))
		if errA != nil || errB != nil || len(a) == 0 {
			t.Fatalf("%s: %v %v", f, errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs with the same seed", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a", "blocks-0004.rlp")); err == nil {
		t.Error("9 blocks in files of 4 made a fourth file")
	}
	a, _ := os.ReadFile(filepath.Join(dir, "a", "blocks-0001.rlp"))
	c, _ := os.ReadFile(filepath.Join(dir, "c", "blocks-0001.rlp"))
	if bytes.Equal(a, c) {
		t.Error("another seed gave the same blocks")
	}
	if err := run(args("a", "5")); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("existing --out: %v", err)
	}
}
