package workload

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
)

func small(seed uint64) Config {
	c := Defaults()
	c.Blocks = 30
	c.Accounts = 300
	c.TxsPerBlock = 20
	c.SlotsPerBlock = 40
	c.BodyBytes = 64
	c.Seed = seed
	return c
}

func runMem(t *testing.T, c Config) (Result, []common.Hash) {
	t.Helper()
	var roots []common.Hash
	res, err := Run(c, rawdb.NewMemoryDatabase(), func(n uint64, root common.Hash) error {
		if n != uint64(len(roots)) {
			t.Fatalf("block %d called out of order", n)
		}
		roots = append(roots, root)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return res, roots
}

func TestDeterministic(t *testing.T) {
	a, ra := runMem(t, small(7))
	b, rb := runMem(t, small(7))
	if a != b {
		t.Fatalf("same seed, different results: %+v vs %+v", a, b)
	}
	for i := range ra {
		if ra[i] != rb[i] {
			t.Fatalf("block %d: root %x vs %x", i, ra[i], rb[i])
		}
	}
	if len(ra) != 31 {
		t.Errorf("%d blocks reported, want 31 (genesis + 30)", len(ra))
	}
	c, _ := runMem(t, small(8))
	if c.Root == a.Root {
		t.Error("different seeds gave the same root")
	}
	if a.Accounts <= 300 || a.Slots == 0 {
		t.Errorf("workload did not grow the state: %+v", a)
	}
}

func TestValidate(t *testing.T) {
	c := Defaults()
	c.Accounts = 0
	c.ZipfS = 1
	c.NewSlotRate = 2
	if err := c.Validate(); err == nil {
		t.Fatal("bad config accepted")
	}
}
