// Tests of the chain generator: determinism, validity (go-ethereum's own
// BlockChain imports every block, so every header, signature, nonce, gas
// figure and state root checks out), and the contracts' behaviour read back
// from the imported state.
package chaingen

import (
	"bytes"
	"errors"
	"io"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
)

// small keeps the tests quick: fewer genesis accounts and transactions.
func small(seed uint64, blocks uint64) Config {
	c := Defaults()
	c.Seed, c.Blocks = seed, blocks
	c.GenesisAccounts, c.TokenHolders, c.GenesisTokens, c.GenesisStores = 300, 100, 4, 6
	c.Validators, c.TxsPerBlock, c.ChunkBlocks = 50, 40, 7 // several chunks
	c.CodeBytes = 600
	return c
}

func generate(t *testing.T, c Config) (genesisJSON []byte, rlpBytes []byte, st Stats, g *Generator) {
	t.Helper()
	g, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	st, err = g.Run(rawdb.NewMemoryDatabase(), WriterSink(&buf), nil)
	if err != nil {
		t.Fatal(err)
	}
	gj, err := GenesisJSON(g.Genesis())
	if err != nil {
		t.Fatal(err)
	}
	return gj, buf.Bytes(), st, g
}

func TestDeterministic(t *testing.T) {
	gj1, b1, s1, _ := generate(t, small(7, 12))
	gj2, b2, s2, _ := generate(t, small(7, 12))
	if !bytes.Equal(gj1, gj2) || !bytes.Equal(b1, b2) || s1.Head != s2.Head {
		t.Fatalf("same seed, different output: genesis %v, blocks %v, head %x vs %x", bytes.Equal(gj1, gj2), bytes.Equal(b1, b2), s1.Head, s2.Head)
	}
	gj3, b3, _, _ := generate(t, small(8, 12))
	if bytes.Equal(gj1, gj3) || bytes.Equal(b1, b3) {
		t.Fatal("different seeds gave identical output")
	}
}

func decodeBlocks(t *testing.T, data []byte) []*types.Block {
	t.Helper()
	s := rlp.NewStream(bytes.NewReader(data), 0)
	var out []*types.Block
	for {
		var b types.Block
		if err := s.Decode(&b); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatalf("block %d: %v", len(out)+1, err)
		}
		out = append(out, &b)
	}
}

// TestImportsIntoBlockChain imports the RLP stream into a fresh in-memory
// BlockChain built from the genesis JSON (the route `geth init` + `geth
// import` take), then checks the mix and the token/store state.
func TestImportsIntoBlockChain(t *testing.T) {
	c := small(3, 30)
	gj, data, st, g := generate(t, c)
	var genesis core.Genesis
	if err := genesis.UnmarshalJSON(gj); err != nil {
		t.Fatalf("genesis.json: %v", err)
	}
	blocks := decodeBlocks(t, data)
	if uint64(len(blocks)) != c.Blocks {
		t.Fatalf("%d blocks in the RLP, want %d", len(blocks), c.Blocks)
	}
	db := rawdb.NewMemoryDatabase()
	chain, err := core.NewBlockChain(db, &genesis, Engine(), core.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer chain.Stop()
	if n, err := chain.InsertChain(blocks); err != nil {
		t.Fatalf("import failed at block index %d: %v", n, err)
	}
	head := chain.CurrentBlock()
	if head.Number.Uint64() != c.Blocks || head.Hash() != st.Head {
		t.Fatalf("head %d %x, want %d %x", head.Number.Uint64(), head.Hash(), c.Blocks, st.Head)
	}
	// Every kind of transaction is in the chain, and blocks carry about
	// TxsPerBlock transactions and 16 withdrawals.
	var txs, withdrawals int
	for _, b := range blocks {
		txs += len(b.Transactions())
		withdrawals += len(b.Withdrawals())
		if b.Header().ParentBeaconRoot == nil || b.Header().ExcessBlobGas == nil || b.Withdrawals() == nil {
			t.Fatalf("block %d lacks Cancun/Shanghai fields", b.NumberU64())
		}
	}
	if uint64(txs) != st.Txs || withdrawals != int(c.Blocks)*c.WithdrawalsPerBlock {
		t.Errorf("txs %d (stats %d), withdrawals %d", txs, st.Txs, withdrawals)
	}
	if lo, hi := int(c.Blocks)*c.TxsPerBlock*3/4, int(c.Blocks)*c.TxsPerBlock*5/4; txs < lo || txs > hi {
		t.Errorf("%d txs, want %d..%d", txs, lo, hi)
	}
	for name, n := range map[string]uint64{"eth": st.EthTransfers, "token": st.TokenTransfers, "approve": st.Approvals,
		"store": st.StoreCalls, "deploy": st.Deploys, "new accounts": st.NewAccounts, "new slots": st.NewSlots} {
		if n == 0 {
			t.Errorf("no %s in %d blocks", name, c.Blocks)
		}
	}
	// Every transaction succeeded (the generator's mirror of balances,
	// nonces and token balances is exact).
	for _, b := range blocks {
		for i, r := range chain.GetReceiptsByHash(b.Hash()) {
			if r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("block %d tx %d failed", b.NumberU64(), i)
			}
		}
	}
	// The token contract's state matches the generator's mirror.
	sdb, err := chain.State()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tk := range g.tokens {
		for _, h := range tk.holders {
			got := sdb.GetState(tk.addr, TokenBalanceSlot(g.addrs[h]))
			if want := common.BigToHash(new(big.Int).SetUint64(tk.bal[h])); got != want {
				t.Fatalf("token %x holder %d: balance %x, want %x", tk.addr, h, got, want)
			}
			checked++
		}
	}
	// Deployed contracts have code of the configured size range.
	for _, s := range g.stores[c.GenesisStores:] {
		if n := len(sdb.GetCode(s.addr)); n < len(storeRuntime())+c.CodeBytes/2 || n > len(storeRuntime())+c.CodeBytes*3/2 {
			t.Errorf("deployed store %x has %d code bytes", s.addr, n)
		}
	}
	// A written store slot holds a value.
	s0 := g.stores[0]
	if s0.slots > 0 && sdb.GetState(s0.addr, storeKey(s0, 0)) == (common.Hash{}) && c.ClearSlotRate == 0 {
		t.Error("store slot 0 empty")
	}
	t.Logf("%d blocks, %d txs, %d token balances checked, %d accounts", c.Blocks, txs, checked, len(g.addrs))
}

func TestValidateRejects(t *testing.T) {
	c := Defaults()
	c.ZipfS, c.SlotsPerCall, c.NewSlotRate = 1, 0, 2
	err := c.Validate()
	if err == nil {
		t.Fatal("bad config accepted")
	}
	for _, want := range []string{"zipf", "slots-per-call", "new-slot-rate"} {
		if !bytes.Contains([]byte(err.Error()), []byte(want)) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}
