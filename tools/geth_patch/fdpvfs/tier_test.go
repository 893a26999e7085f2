package fdpvfs

import (
	"strings"
	"testing"
)

func TestTierForName(t *testing.T) {
	cases := []struct {
		path  string
		tier  Tier
		known bool
	}{
		{"/db/000012.log", TierWAL, true},
		{"/db/000013.sst", TierDeep, false},
		{"/db/MANIFEST-000001", TierMeta, true},
		{"/db/OPTIONS-000003", TierMeta, true},
		{"/db/CURRENT", TierMeta, true},
		{"/db/LOCK", TierMeta, true},
		{"/db/temporary.000003.dbtmp", TierMeta, true},
		{"/db/marker.format-version.000001.013", TierMeta, true},
	}
	for _, c := range cases {
		got, known := TierForName(c.path)
		if known != c.known || (known && got != c.tier) {
			t.Errorf("TierForName(%q) = %v, %v; want %v, %v", c.path, got, known, c.tier, c.known)
		}
	}
}

func TestTierForCompaction(t *testing.T) {
	cases := []struct {
		in, out int
		want    Tier
	}{
		{0, 0, TierL0Cmp}, // intra-L0
		{0, 1, TierL0Cmp},
		{0, 5, TierL0Cmp}, // L0 -> Lbase, wherever Lbase is
		{1, 2, TierMidCmp},
		{4, 5, TierMidCmp},
		{5, 6, TierDeep},
		{6, 6, TierDeep}, // rewrite / elision-only in the bottom level
	}
	for _, c := range cases {
		if got := TierForCompaction(c.in, c.out); got != c.want {
			t.Errorf("TierForCompaction(%d, %d) = %v, want %v", c.in, c.out, got, c.want)
		}
	}
}

func TestTierNamesRoundTrip(t *testing.T) {
	for tr := Tier(0); tr < NumTiers; tr++ {
		got, err := ParseTier(tr.String())
		if err != nil || got != tr {
			t.Errorf("ParseTier(%q) = %v, %v", tr.String(), got, err)
		}
	}
	if got, err := ParseTier("sst_l0cmp"); err != nil || got != TierL0Cmp {
		t.Errorf("study name sst_l0cmp: %v %v", got, err)
	}
	if _, err := ParseTier("bogus"); err == nil {
		t.Error("ParseTier(bogus) succeeded")
	}
}

func TestParseTierMap(t *testing.T) {
	m, err := ParseTierMap("wal=4, deep=1,marker=3", DefaultTierMap)
	if err != nil {
		t.Fatal(err)
	}
	if m[TierWAL] != 4 || m[TierDeep] != 1 || m[TierMarker] != 3 || m[TierFlush] != DefaultTierMap[TierFlush] {
		t.Errorf("got %v", m)
	}
	back, err := ParseTierMap(m.String(), TierMap{})
	if err != nil || back != m {
		t.Errorf("round trip: %v %v", back, err)
	}
	for _, bad := range []string{"wal", "wal=x", "nope=1", "wal=300"} {
		if _, err := ParseTierMap(bad, DefaultTierMap); err == nil {
			t.Errorf("ParseTierMap(%q) succeeded", bad)
		}
	}
}

func TestDefaultTierMapFitsHints(t *testing.T) {
	seen := map[uint8]Tier{}
	for tr := TierWAL; tr <= TierDeep; tr++ {
		id := DefaultTierMap[tr]
		if id == 0 || id > MaxHint {
			t.Errorf("tier %v has default id %d, want a tagged hint 1..%d", tr, id, MaxHint)
		}
		if prev, dup := seen[id]; dup {
			t.Errorf("tiers %v and %v share id %d", prev, tr, id)
		}
		seen[id] = tr
	}
}

func TestParseMode(t *testing.T) {
	for s, want := range map[string]Mode{"hints": ModeHints, "dirs": ModeDirs, "log": ModeLog, "none": ModeNone, "hints,log": ModeHints | ModeLog} {
		got, err := ParseMode(s)
		if err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v", s, got, err)
		}
		if s != "none" && got.String() != s {
			t.Errorf("Mode(%q).String() = %q", s, got.String())
		}
	}
	for _, bad := range []string{"", "fast", "none,log"} {
		if _, err := ParseMode(bad); err == nil {
			t.Errorf("ParseMode(%q) succeeded", bad)
		}
	}
}

func envOf(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

func TestOptionsFromEnv(t *testing.T) {
	if _, on, err := OptionsFromEnv(envOf(nil), "/db"); on || err != nil {
		t.Fatalf("unset GETH_FDP: enabled=%v err=%v", on, err)
	}
	o, on, err := OptionsFromEnv(envOf(map[string]string{
		EnvEnable: "1", EnvMode: "hints,log", EnvMap: "wal=2,flush=1", EnvStats: "/out/%s.json",
		EnvAncientDir: "/a:/b", EnvDirs: "1=/x,2=/y/%s", EnvDirRoot: "/r/%s",
	}), "/data/geth/chaindata")
	if err != nil || !on {
		t.Fatalf("enabled=%v err=%v", on, err)
	}
	if o.NonFDP || o.Mode != ModeHints|ModeLog || o.ID(TierWAL) != 2 || o.ID(TierFlush) != 1 || o.ID(TierDeep) != 5 {
		t.Errorf("options: %+v map %v", o, o.Map)
	}
	if o.StatsPath != "/out/chaindata.json" || len(o.AncientDirs) != 2 || o.Dirs[1] != "/x" ||
		o.Dirs[2] != "/y/chaindata" || o.DirRoot != "/r/chaindata" {
		t.Errorf("paths: %+v", o)
	}

	// Non-FDP collapses every tier to the single ID.
	o, _, err = OptionsFromEnv(envOf(map[string]string{EnvEnable: "0", EnvSingleID: "3"}), "/db")
	if err != nil {
		t.Fatal(err)
	}
	for tr := Tier(0); tr < NumTiers; tr++ {
		if o.ID(tr) != 3 {
			t.Errorf("non-FDP: tier %v has id %d, want 3", tr, o.ID(tr))
		}
	}

	// Every problem is reported at once.
	_, _, err = OptionsFromEnv(envOf(map[string]string{EnvEnable: "maybe", EnvMode: "fast", EnvMap: "wal=9"}), "/db")
	if err == nil {
		t.Fatal("bad settings accepted")
	}
	for _, want := range []string{"GETH_FDP=", "unknown mode", "write hints only go up to 5"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}
