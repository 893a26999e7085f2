// Package fdpvfs is a Pebble vfs.FS wrapper that classifies every file Pebble
// writes into the placement tiers of the Ethereum FDP study (WAL, flush
// output, L0->Lbase compaction output, mid-level and deep compaction output,
// metadata) plus geth's ancient/freezer files, and places each tier through
// per-file write hints (fcntl F_SET_RW_HINT), per-tier directories, or a
// file-level event log. It counts the bytes written per tier.
//
// The package depends only on the standard library, golang.org/x/sys/unix and
// Pebble v1.1.x, so that tools/geth_patch/apply.sh can copy it unchanged into
// a go-ethereum source tree (as ethdb/pebble/fdpvfs).
package fdpvfs

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Tier is the placement class of a file.
type Tier uint8

// The tiers, in the order of the study's placement table (hottest first),
// followed by the metadata and marker tiers this project adds.
const (
	TierWAL     Tier = iota // Pebble write-ahead log (*.log)
	TierFlush               // L0 tables written by a memtable flush
	TierL0Cmp               // output of compactions whose first input is L0
	TierMidCmp              // compaction output to a level < 6
	TierDeep                // compaction output to level >= 6
	TierMeta                // MANIFEST, OPTIONS, CURRENT, format markers, LOCK, temp files
	TierAncient             // geth ancient/freezer files (classified by path)
	TierMarker              // ethstate's per-block marker file
	NumTiers
)

// kDeepLevel is the first level whose compaction output counts as deep
// (Pebble has 7 levels, L0..L6; the study puts output >= L6 in the cold tier).
const kDeepLevel = 6

var tierNames = [NumTiers]string{"wal", "flush", "l0cmp", "midcmp", "deep", "meta", "ancient", "marker"}

// String returns the tier's short name as used in maps, logs and stats.
func (t Tier) String() string {
	if t < NumTiers {
		return tierNames[t]
	}
	return "tier" + strconv.Itoa(int(t))
}

// ParseTier parses a tier name (see String); it also accepts the study's
// directory names (sst_flush, sst_l0cmp, sst_midcmp, chaindata).
func ParseTier(s string) (Tier, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "sst_flush":
		return TierFlush, nil
	case "sst_l0cmp":
		return TierL0Cmp, nil
	case "sst_midcmp":
		return TierMidCmp, nil
	case "chaindata":
		return TierDeep, nil
	}
	for i, n := range tierNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Tier(i), nil
		}
	}
	return 0, fmt.Errorf("fdpvfs: unknown tier %q (want one of %s)", s, strings.Join(tierNames[:], ", "))
}

// TierMap maps every tier to a placement ID. In hints mode the ID is the
// write-life hint value given to F_SET_RW_HINT and must be 0..5.
type TierMap [NumTiers]uint8

// DefaultTierMap is the default tier -> ID (= write hint) table.
//
// Linux carries only six hint values (RWH_WRITE_LIFE_NOT_SET=0, NONE=1,
// SHORT=2, MEDIUM=3, LONG=4, EXTREME=5) and 0 is indistinguishable from an
// untagged write, so the five tagged values go to the five Pebble data tiers
// in order of temperature; ancient shares 5 (coldest) with deep output, and
// metadata and markers stay untagged (0) like file-system metadata.
var DefaultTierMap = TierMap{
	TierWAL:     1,
	TierFlush:   2,
	TierL0Cmp:   3,
	TierMidCmp:  4,
	TierDeep:    5,
	TierMeta:    0,
	TierAncient: 5,
	TierMarker:  0,
}

// MaxHint is the largest value F_SET_RW_HINT accepts (RWH_WRITE_LIFE_EXTREME).
const MaxHint = 5

// ParseTierMap applies "tier=id,tier=id" overrides to base. Empty s returns base.
func ParseTierMap(s string, base TierMap) (TierMap, error) {
	m := base
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return m, fmt.Errorf("fdpvfs: map entry %q is not tier=id", item)
		}
		t, err := ParseTier(k)
		if err != nil {
			return m, err
		}
		id, err := strconv.ParseUint(strings.TrimSpace(v), 10, 8)
		if err != nil {
			return m, fmt.Errorf("fdpvfs: map entry %q: id must be 0..255", item)
		}
		m[t] = uint8(id)
	}
	return m, nil
}

// String renders the map in the form ParseTierMap reads.
func (m TierMap) String() string {
	var b strings.Builder
	for t := Tier(0); t < NumTiers; t++ {
		if t > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%d", t, m[t])
	}
	return b.String()
}

// fileKind is what a file's name alone says about it.
type fileKind uint8

const (
	kindOther fileKind = iota // metadata or unknown: TierMeta
	kindWAL                   // *.log
	kindTable                 // *.sst: tier decided by the event listener
)

// classifyName returns the kind of a Pebble file from its base name.
func classifyName(path string) fileKind {
	base := filepath.Base(path)
	switch {
	case strings.HasSuffix(base, ".log"):
		return kindWAL
	case strings.HasSuffix(base, ".sst"):
		return kindTable
	}
	return kindOther
}

// TierForName is the tier a file gets from its name alone: WAL for *.log,
// metadata for everything that is not a table; tables return ok=false since
// their tier depends on the job that writes them.
func TierForName(path string) (t Tier, ok bool) {
	switch classifyName(path) {
	case kindWAL:
		return TierWAL, true
	case kindTable:
		return TierDeep, false
	}
	return TierMeta, true
}

// TierForCompaction is the tier of the tables a compaction writes, from its
// first input level and its output level (the study's rule: first input L0
// -> l0cmp, which includes intra-L0 compactions; else output < L6 -> midcmp;
// else deep).
func TierForCompaction(firstInputLevel, outputLevel int) Tier {
	switch {
	case firstInputLevel == 0:
		return TierL0Cmp
	case outputLevel < kDeepLevel:
		return TierMidCmp
	}
	return TierDeep
}
