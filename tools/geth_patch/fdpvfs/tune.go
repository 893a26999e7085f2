// Pebble settings from the environment, for reproducing the Ethereum FDP
// study's geth configuration and its scale model (docs/geth_study.md): the
// study ran geth with SST compression off and a 16 MB memtable; the scale
// model also divides Pebble's file and level sizes by the device's scale.
package fdpvfs

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cockroachdb/pebble"
)

// Environment variables read by TuneFromEnv.
const (
	EnvNoCompression = "GETH_PEBBLE_NO_COMPRESSION" // 1: no SST compression (the study's setting)
	EnvMemtableMB    = "GETH_PEBBLE_MEMTABLE_MB"    // memtable size in MB (the study: 16)
	EnvMemtableKB    = "GETH_PEBBLE_MEMTABLE_KB"    // memtable size in KiB (for scale models)
	EnvScale         = "GETH_PEBBLE_SCALE"          // N: divide every level's target file size and LBaseMaxBytes by N
	EnvMinFileKB     = "GETH_PEBBLE_MIN_FILE_KB"    // with GETH_PEBBLE_SCALE: no target file size below this (default 4)
)

// TuneEnvSet reports whether any GETH_PEBBLE_* variable is set.
func TuneEnvSet(getenv func(string) string) bool {
	for _, k := range []string{EnvNoCompression, EnvMemtableMB, EnvMemtableKB, EnvScale, EnvMinFileKB} {
		if getenv(k) != "" {
			return true
		}
	}
	return false
}

// Pebble's default LBaseMaxBytes (Options.EnsureDefaults), which geth keeps.
const defaultLBaseMaxBytes = 64 << 20

// TuneFromEnv changes opt as the GETH_PEBBLE_* variables say and returns a
// one-line summary of what it set ("" when nothing is set). Every bad value
// is reported in one error, and opt is then left unchanged.
func TuneFromEnv(getenv func(string) string, opt *pebble.Options) (string, error) {
	var errs []error
	parse := func(k string, lo, hi uint64) (uint64, bool) {
		v := strings.TrimSpace(getenv(k))
		if v == "" {
			return 0, false
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n < lo || n > hi {
			errs = append(errs, fmt.Errorf("fdpvfs: %s=%q: want an integer %d..%d", k, v, lo, hi))
			return 0, false
		}
		return n, true
	}
	noComp := false
	switch v := strings.TrimSpace(getenv(EnvNoCompression)); v {
	case "", "0":
	case "1":
		noComp = true
	default:
		errs = append(errs, fmt.Errorf("fdpvfs: %s=%q: want 1 or 0", EnvNoCompression, v))
	}
	mb, hasMB := parse(EnvMemtableMB, 1, 4095)
	kb, hasKB := parse(EnvMemtableKB, 64, 4095*1024)
	scale, hasScale := parse(EnvScale, 1, 4096)
	minFileKB, hasMin := parse(EnvMinFileKB, 4, 1<<20)
	if !hasMin {
		minFileKB = 4
	} else if !hasScale {
		errs = append(errs, fmt.Errorf("fdpvfs: %s needs %s", EnvMinFileKB, EnvScale))
	}
	if hasMB && hasKB {
		errs = append(errs, fmt.Errorf("fdpvfs: set %s or %s, not both", EnvMemtableMB, EnvMemtableKB))
	}
	if len(errs) > 0 {
		return "", errors.Join(errs...)
	}
	var parts []string
	if noComp {
		for i := range opt.Levels {
			opt.Levels[i].Compression = pebble.NoCompression
		}
		parts = append(parts, "compression=none")
	}
	if hasMB {
		kb, hasKB = mb*1024, true
	}
	if hasKB {
		opt.MemTableSize = kb * 1024
		parts = append(parts, fmt.Sprintf("memtable=%dKiB", kb))
	}
	if hasScale {
		base := opt.LBaseMaxBytes
		if base <= 0 {
			base = defaultLBaseMaxBytes
		}
		opt.LBaseMaxBytes = max(base/int64(scale), 64<<10)
		sizes := make([]string, len(opt.Levels))
		for i := range opt.Levels {
			t := opt.Levels[i].TargetFileSize
			if t <= 0 {
				t = 2 << 20 // Pebble's default for L0
			}
			opt.Levels[i].TargetFileSize = max(t/int64(scale), int64(minFileKB)<<10)
			sizes[i] = strconv.FormatInt(opt.Levels[i].TargetFileSize>>10, 10)
		}
		parts = append(parts, fmt.Sprintf("scale=1/%d lbase=%dKiB files=[%s]KiB", scale, opt.LBaseMaxBytes>>10, strings.Join(sizes, ",")))
	}
	return strings.Join(parts, " "), nil
}
