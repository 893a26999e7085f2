package fdpvfs

import (
	"strings"
	"testing"

	"github.com/cockroachdb/pebble"
)

// geth v1.16's levels: 2 MB doubling to 128 MB.
func gethOptions() *pebble.Options {
	o := &pebble.Options{MemTableSize: 256 << 20}
	for i := 0; i < 7; i++ {
		o.Levels = append(o.Levels, pebble.LevelOptions{TargetFileSize: (2 << 20) << i})
	}
	return o
}

func TestTuneFromEnv(t *testing.T) {
	o := gethOptions()
	got, err := TuneFromEnv(envOf(map[string]string{EnvNoCompression: "1", EnvMemtableKB: "512", EnvScale: "128", EnvMinFileKB: "64"}), o)
	if err != nil {
		t.Fatal(err)
	}
	if o.MemTableSize != 512<<10 || o.LBaseMaxBytes != (64<<20)/128 {
		t.Errorf("memtable %d, lbase %d", o.MemTableSize, o.LBaseMaxBytes)
	}
	// 2 MB/128 = 16 KiB -> 64 KiB floor; 128 MB/128 = 1 MiB.
	want := []int64{64, 64, 64, 128, 256, 512, 1024}
	for i, l := range o.Levels {
		if l.TargetFileSize != want[i]<<10 || l.Compression != pebble.NoCompression {
			t.Errorf("level %d: file %d, compression %v", i, l.TargetFileSize, l.Compression)
		}
	}
	if !strings.Contains(got, "compression=none") || !strings.Contains(got, "scale=1/128") {
		t.Errorf("summary %q", got)
	}
	// Nothing set: nothing changes.
	o2 := gethOptions()
	if got, err := TuneFromEnv(envOf(nil), o2); err != nil || got != "" || o2.MemTableSize != 256<<20 || o2.Levels[0].Compression != pebble.DefaultCompression {
		t.Errorf("empty env changed options: %q %v", got, err)
	}
}

func TestTuneRejects(t *testing.T) {
	o := gethOptions()
	_, err := TuneFromEnv(envOf(map[string]string{EnvNoCompression: "yes", EnvMemtableKB: "1", EnvMemtableMB: "16", EnvScale: "0", EnvMinFileKB: "64"}), o)
	if err == nil {
		t.Fatal("bad values accepted")
	}
	for _, w := range []string{EnvNoCompression, EnvMemtableKB, EnvScale} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error does not name %s: %v", w, err)
		}
	}
	if o.MemTableSize != 256<<20 {
		t.Error("options changed despite the error")
	}
}
