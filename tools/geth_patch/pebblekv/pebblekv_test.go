package pebblekv

import (
	"testing"

	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/ethdb"
)

func collect(t *testing.T, it ethdb.Iterator) []string {
	t.Helper()
	defer it.Release()
	var out []string
	for it.Next() {
		out = append(out, string(it.Key())+"="+string(it.Value()))
	}
	if err := it.Error(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStore(t *testing.T) {
	s, err := Open(t.TempDir(), Options(16))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, k := range []string{"a1", "a2", "a3", "b1", "a\xff"} {
		if err := s.Put([]byte(k), []byte("v"+k)); err != nil {
			t.Fatal(err)
		}
	}
	if ok, _ := s.Has([]byte("a2")); !ok {
		t.Error("Has(a2) = false")
	}
	if v, err := s.Get([]byte("b1")); err != nil || string(v) != "vb1" {
		t.Errorf("Get(b1) = %q, %v", v, err)
	}
	if _, err := s.Get([]byte("zz")); err == nil {
		t.Error("Get(zz) found a missing key")
	}
	if err := s.Delete([]byte("a1")); err != nil {
		t.Fatal(err)
	}
	got := collect(t, s.NewIterator([]byte("a"), []byte("2")))
	if len(got) != 3 || got[0] != "a2=va2" || got[2] != "a\xff=va\xff" {
		t.Errorf("iterator: %q", got)
	}

	// A batch with every kind of operation replays into another store.
	b := s.NewBatch()
	b.Put([]byte("c1"), []byte("x"))
	b.Delete([]byte("b1"))
	b.DeleteRange([]byte("a"), []byte("a3"))
	if b.ValueSize() == 0 {
		t.Error("ValueSize = 0")
	}
	mem := rawdb.NewMemoryDatabase()
	mem.Put([]byte("b1"), []byte("old"))
	mem.Put([]byte("a2"), []byte("old"))
	if err := b.Replay(mem); err != nil {
		t.Fatal(err)
	}
	if ok, _ := mem.Has([]byte("b1")); ok {
		t.Error("replayed delete missing")
	}
	if ok, _ := mem.Has([]byte("a2")); ok {
		t.Error("replayed range delete missing")
	}
	if err := b.Write(); err != nil {
		t.Fatal(err)
	}
	if got := collect(t, s.NewIterator(nil, nil)); len(got) != 3 || got[0] != "a3=va3" || got[2] != "c1=x" {
		t.Errorf("after batch: %q", got)
	}
	if err := s.SyncKeyValue(); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Stat(); err != nil {
		t.Fatal(err)
	}
}
