package fdpvfs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Mode is a set of placement mechanisms; they combine ("hints,log").
type Mode uint8

const (
	// ModeHints sets a per-file write-life hint (fcntl F_SET_RW_HINT) with the
	// tier's ID on every file written. It is the default.
	ModeHints Mode = 1 << iota
	// ModeDirs places the files of each ID in their own directory (symlinked
	// from Pebble's directory), for FDP-aware file systems that place by
	// directory.
	ModeDirs
	// ModeLog appends a JSONL record per file event (see eventlog.go).
	ModeLog
	// ModeNone only counts bytes per tier; it places nothing.
	ModeNone
)

// ParseMode reads "hints", "dirs", "log", "none" or a comma-separated set.
func ParseMode(s string) (Mode, error) {
	var m Mode
	for _, p := range strings.Split(s, ",") {
		switch strings.ToLower(strings.TrimSpace(p)) {
		case "hints", "hint":
			m |= ModeHints
		case "dirs", "dir":
			m |= ModeDirs
		case "log":
			m |= ModeLog
		case "none", "count":
			m |= ModeNone
		case "":
		default:
			return 0, fmt.Errorf("fdpvfs: unknown mode %q (want hints, dirs, log, none or a comma-separated set)", p)
		}
	}
	if m == 0 {
		return 0, errors.New("fdpvfs: empty mode")
	}
	if m&ModeNone != 0 && m != ModeNone {
		return 0, errors.New("fdpvfs: mode none cannot be combined with other modes")
	}
	return m, nil
}

// String renders the mode as ParseMode reads it.
func (m Mode) String() string {
	var parts []string
	for _, x := range []struct {
		bit  Mode
		name string
	}{{ModeHints, "hints"}, {ModeDirs, "dirs"}, {ModeLog, "log"}, {ModeNone, "none"}} {
		if m&x.bit != 0 {
			parts = append(parts, x.name)
		}
	}
	if len(parts) == 0 {
		return "hints"
	}
	return strings.Join(parts, ",")
}

// Options configures the wrapper. The zero value is the default: FDP mode,
// write hints, DefaultTierMap, files beside Pebble's directory.
type Options struct {
	// Mode selects the placement mechanisms. Default (0): ModeHints.
	Mode Mode
	// Map is the tier -> placement ID table. Default (nil): DefaultTierMap.
	Map *TierMap
	// NonFDP collapses every tier to SingleID (the single-stream baseline);
	// tiers are still classified and counted. Default: false.
	NonFDP bool
	// SingleID is the ID of every tier when NonFDP is set. Default: 0.
	SingleID uint8

	// DirRoot is the root of the per-ID directories in dirs mode: ID k lives
	// in DirRoot/p<k>. Default: <pebble dir>/fdp.
	DirRoot string
	// Dirs overrides the directory of individual IDs in dirs mode. Metadata
	// files always stay in Pebble's directory. Default: none.
	Dirs map[uint8]string

	// LogPath is the JSONL event log of log mode, appended to.
	// Default: <pebble dir>/fdp_events.jsonl.
	LogPath string
	// StatsPath receives the per-tier stats JSON when the database (its LOCK)
	// or the FS is closed. "-" disables it. Default: <pebble dir>/fdp_stats.json.
	StatsPath string

	// AncientDirs are directories (searched recursively) whose files geth
	// writes itself, outside Pebble; they get TierAncient by path. In hints
	// mode a watcher (inotify plus a periodic rescan) sets the hint on every
	// file that appears there. nil: <pebble dir>/ancient; empty non-nil: none.
	AncientDirs []string
	// AncientRescan is the period of the watcher's safety rescan.
	// Default: 1s.
	AncientRescan time.Duration
}

// ID returns the placement ID of tier t under these options.
func (o *Options) ID(t Tier) uint8 {
	if o.NonFDP {
		return o.SingleID
	}
	if o.Map == nil {
		return DefaultTierMap[t]
	}
	return o.Map[t]
}

// withDefaults returns a copy with every default filled in for Pebble
// directory dir.
func (o Options) withDefaults(dir string) Options {
	if o.Mode == 0 {
		o.Mode = ModeHints
	}
	if o.Map == nil {
		m := DefaultTierMap
		o.Map = &m
	}
	if o.DirRoot == "" {
		o.DirRoot = filepath.Join(dir, "fdp")
	}
	if o.LogPath == "" {
		o.LogPath = filepath.Join(dir, "fdp_events.jsonl")
	}
	if o.StatsPath == "" {
		o.StatsPath = filepath.Join(dir, "fdp_stats.json")
	}
	if o.AncientDirs == nil {
		o.AncientDirs = []string{filepath.Join(dir, "ancient")}
	}
	if o.AncientRescan <= 0 {
		o.AncientRescan = time.Second
	}
	return o
}

// Validate reports every problem with the options at once.
func (o Options) Validate() error {
	var errs []error
	if o.Mode&ModeHints != 0 {
		for t := Tier(0); t < NumTiers; t++ {
			if id := o.ID(t); id > MaxHint {
				errs = append(errs, fmt.Errorf("fdpvfs: tier %s has ID %d but write hints only go up to %d", t, id, MaxHint))
			}
		}
	}
	for id, d := range o.Dirs {
		if d == "" {
			errs = append(errs, fmt.Errorf("fdpvfs: empty directory for ID %d", id))
		}
	}
	return errors.Join(errs...)
}

// Environment variables read by OptionsFromEnv (documented in README.md).
const (
	EnvEnable     = "GETH_FDP"             // unset: wrapper off; 1: FDP; 0: non-FDP baseline (one ID)
	EnvMode       = "GETH_FDP_MODE"        // hints (default) | dirs | log | none, or a comma-separated set
	EnvMap        = "GETH_FDP_MAP"         // tier=id overrides, e.g. "wal=1,flush=2"
	EnvSingleID   = "GETH_FDP_SINGLE_ID"   // ID of every tier when GETH_FDP=0 (default 0)
	EnvDirRoot    = "GETH_FDP_DIR_ROOT"    // dirs mode root (default <db>/fdp); "%s" becomes the db dir's base name
	EnvDirs       = "GETH_FDP_DIRS"        // dirs mode per-ID dirs, "1=/mnt/a,2=/mnt/b"; "%s" as in EnvDirRoot
	EnvLog        = "GETH_FDP_LOG"         // JSONL event log path
	EnvStats      = "GETH_FDP_STATS"       // stats JSON path ("-" disables); "%s" becomes the db dir's base name
	EnvAncientDir = "GETH_FDP_ANCIENT_DIR" // ':'-separated ancient dirs (default <db>/ancient)
)

// OptionsFromEnv builds Options from the GETH_FDP* environment variables
// through getenv (os.Getenv when nil). enabled is false when GETH_FDP is
// unset or empty, in which case the caller must not install the wrapper.
func OptionsFromEnv(getenv func(string) string, dbDir string) (o Options, enabled bool, err error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var errs []error
	switch v := strings.TrimSpace(getenv(EnvEnable)); strings.ToLower(v) {
	case "":
		return o, false, nil
	case "1", "true", "yes", "on", "fdp":
	case "0", "false", "no", "off", "nonfdp", "single":
		o.NonFDP = true
	default:
		errs = append(errs, fmt.Errorf("fdpvfs: %s=%q: want 1 (FDP) or 0 (non-FDP)", EnvEnable, v))
	}
	if v := getenv(EnvMode); v != "" {
		m, err := ParseMode(v)
		if err != nil {
			errs = append(errs, err)
		}
		o.Mode = m
	}
	if v := getenv(EnvMap); v != "" {
		m, err := ParseTierMap(v, DefaultTierMap)
		if err != nil {
			errs = append(errs, err)
		}
		o.Map = &m
	}
	if v := strings.TrimSpace(getenv(EnvSingleID)); v != "" {
		id, err := strconv.ParseUint(v, 10, 8)
		if err != nil {
			errs = append(errs, fmt.Errorf("fdpvfs: %s=%q: want 0..255", EnvSingleID, v))
		}
		o.SingleID = uint8(id)
	}
	// "%s" in the directories becomes the db dir's base name: geth opens
	// two databases (chaindata, lightchaindata) with the same environment.
	base := filepath.Base(dbDir)
	o.DirRoot = strings.ReplaceAll(getenv(EnvDirRoot), "%s", base)
	if v := getenv(EnvDirs); v != "" {
		d, err := ParseDirs(v)
		if err != nil {
			errs = append(errs, err)
		}
		for id, dir := range d {
			d[id] = strings.ReplaceAll(dir, "%s", base)
		}
		o.Dirs = d
	}
	o.LogPath = getenv(EnvLog)
	if v := getenv(EnvStats); v != "" {
		o.StatsPath = strings.ReplaceAll(v, "%s", filepath.Base(dbDir))
	}
	if v := getenv(EnvAncientDir); v != "" {
		o.AncientDirs = filepath.SplitList(v)
	}
	errs = append(errs, o.withDefaults(dbDir).Validate())
	return o, true, errors.Join(errs...)
}

// ParseDirs reads "id=dir,id=dir".
func ParseDirs(s string) (map[uint8]string, error) {
	out := map[uint8]string{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return out, fmt.Errorf("fdpvfs: dirs entry %q is not id=dir", item)
		}
		id, err := strconv.ParseUint(strings.TrimSpace(k), 10, 8)
		if err != nil {
			return out, fmt.Errorf("fdpvfs: dirs entry %q: key must be a placement ID 0..255", item)
		}
		out[uint8(id)] = strings.TrimSpace(v)
	}
	return out, nil
}

// describeDirs renders Dirs in a stable order (for stats and logs).
func describeDirs(d map[uint8]string) string {
	ids := make([]int, 0, len(d))
	for id := range d {
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d=%s", id, d[uint8(id)])
	}
	return b.String()
}
