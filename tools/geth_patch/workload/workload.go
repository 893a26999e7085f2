// Package workload generates an Ethereum-like state workload and commits it
// block by block through go-ethereum's own StateDB over the path scheme
// (triedb/pathdb). The sequence of state updates is a pure function of
// Config, so a given seed always yields the same state roots.
package workload

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/ethereum/go-ethereum/triedb/pathdb"
	"github.com/holiman/uint256"
)

// Config shapes the workload. Every field has a default (Defaults).
type Config struct {
	Blocks          uint64  // blocks to commit after genesis (default 1000)
	Accounts        int     // externally owned accounts created at genesis (default 10000)
	Contracts       int     // contracts created at genesis (default Accounts/20)
	TxsPerBlock     int     // value transfers per block (default 100)
	SlotsPerBlock   int     // contract storage writes per block (default 200)
	NewAccountRate  float64 // chance a transfer pays a brand-new account (default 0.05)
	NewContractRate float64 // chance per block of one new contract (default 0.2)
	NewSlotRate     float64 // chance a storage write creates a new slot (default 0.2)
	DeleteSlotRate  float64 // chance a storage write clears a slot (default 0.05)
	ZipfS           float64 // Zipf exponent of account/contract/slot popularity, > 1 (default 1.1)
	RecentRate      float64 // chance a pick goes to one of the 1024 newest accounts (default 0.1)
	BodyBytes       int     // random bytes stored per block in the key-value store, standing in for headers/bodies/receipts (default 4096)
	Seed            uint64  // PRNG seed (default 0 is a valid seed)

	// Path-scheme trie database settings.
	WriteBufferMB int    // pathdb write buffer; small so trie writes spread over the run (default 4; geth's is 64)
	StateHistory  uint64 // state histories kept when the database has a freezer (default 90000)
	FinalCommit   bool   // flush every layer to disk after the last block (ethstate sets it)
}

// Defaults returns the default configuration.
func Defaults() Config {
	return Config{
		Blocks:          1000,
		Accounts:        10000,
		Contracts:       -1,
		TxsPerBlock:     100,
		SlotsPerBlock:   200,
		NewAccountRate:  0.05,
		NewContractRate: 0.2,
		NewSlotRate:     0.2,
		DeleteSlotRate:  0.05,
		ZipfS:           1.1,
		RecentRate:      0.1,
		BodyBytes:       4096,
		WriteBufferMB:   4,
		StateHistory:    90000,
		FinalCommit:     true,
	}
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var errs []error
	if c.Accounts < 1 {
		errs = append(errs, errors.New("accounts must be >= 1"))
	}
	if c.TxsPerBlock < 0 || c.SlotsPerBlock < 0 || c.BodyBytes < 0 {
		errs = append(errs, errors.New("txs, slots and body bytes per block must be >= 0"))
	}
	if c.ZipfS <= 1 {
		errs = append(errs, fmt.Errorf("zipf exponent %v must be > 1", c.ZipfS))
	}
	for name, p := range map[string]float64{"new-account": c.NewAccountRate, "new-contract": c.NewContractRate,
		"new-slot": c.NewSlotRate, "delete-slot": c.DeleteSlotRate, "recent": c.RecentRate} {
		if p < 0 || p > 1 {
			errs = append(errs, fmt.Errorf("%s rate %v must be in [0, 1]", name, p))
		}
	}
	if c.WriteBufferMB < 1 {
		errs = append(errs, errors.New("write buffer must be >= 1 MB"))
	}
	return errors.Join(errs...)
}

// BlockFunc is called after block n is committed with its state root.
type BlockFunc func(n uint64, root common.Hash) error

// Result summarises a run.
type Result struct {
	Root      common.Hash // state root after the last block
	Accounts  int         // accounts that exist at the end
	Contracts int
	Slots     uint64 // storage slots ever created
}

// gen holds the generator state; all randomness comes from rng.
type gen struct {
	cfg       Config
	rng       *rand.Rand
	seed      [8]byte
	accounts  []common.Address
	contracts []common.Address
	slots     []uint64 // slots created per contract
	nonces    map[common.Address]uint64
	slotTotal uint64
}

func newGen(cfg Config) *gen {
	g := &gen{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x65746873746174)), nonces: map[common.Address]uint64{}}
	binary.BigEndian.PutUint64(g.seed[:], cfg.Seed)
	return g
}

func (g *gen) address(kind string, i int) common.Address {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(i))
	return common.BytesToAddress(crypto.Keccak256(g.seed[:], []byte(kind), b[:])[12:])
}

// AccountAddress is the address of the i-th account created with seed.
func AccountAddress(seed uint64, i int) common.Address {
	return newGen(Config{Seed: seed}).address("account", i)
}

// pick returns an index in [0, n): Zipf-popular (low indexes, the oldest,
// are hottest) or, with RecentRate, one of the newest 1024.
func (g *gen) pick(n int, recent bool) int {
	if n <= 1 {
		return 0
	}
	if recent && g.rng.Float64() < g.cfg.RecentRate {
		w := min(n, 1024)
		return n - 1 - g.rng.IntN(w)
	}
	z := rand.NewZipf(g.rng, g.cfg.ZipfS, 1, uint64(n-1))
	return int(z.Uint64())
}

func (g *gen) randBytes(n int) []byte {
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], g.rng.Uint64())
		copy(b[i:], w[:])
	}
	return b
}

func (g *gen) newAccount(sdb *state.StateDB, balance *uint256.Int) common.Address {
	a := g.address("account", len(g.accounts))
	g.accounts = append(g.accounts, a)
	sdb.AddBalance(a, balance, tracing.BalanceChangeTransfer)
	return a
}

func (g *gen) newContract(sdb *state.StateDB) {
	a := g.address("contract", len(g.contracts))
	g.contracts = append(g.contracts, a)
	g.slots = append(g.slots, 0)
	sdb.CreateAccount(a)
	sdb.SetNonce(a, 1, tracing.NonceChangeNewContract)
	sdb.SetCode(a, g.randBytes(200+g.rng.IntN(4000)), tracing.CodeChangeContractCreation)
	// A few initial slots, as a constructor would write.
	for k := 0; k < 4; k++ {
		g.writeSlot(sdb, len(g.contracts)-1, true)
	}
}

func slotKey(k uint64) common.Hash {
	var b [32]byte
	binary.BigEndian.PutUint64(b[24:], k)
	return crypto.Keccak256Hash(b[:])
}

func (g *gen) writeSlot(sdb *state.StateDB, c int, create bool) {
	var k uint64
	if create || g.slots[c] == 0 || g.rng.Float64() < g.cfg.NewSlotRate {
		k = g.slots[c]
		g.slots[c]++
		g.slotTotal++
	} else {
		k = uint64(g.pick(int(g.slots[c]), false))
	}
	var v common.Hash
	if create || g.rng.Float64() >= g.cfg.DeleteSlotRate {
		// Mostly small numbers (counters, balances), some full words (hashes).
		if g.rng.IntN(4) == 0 {
			copy(v[:], g.randBytes(32))
		} else {
			binary.BigEndian.PutUint64(v[24:], 1+g.rng.Uint64N(1<<40))
		}
	}
	sdb.SetState(g.contracts[c], slotKey(k), v)
}

func (g *gen) genesis(sdb *state.StateDB) {
	bal := new(uint256.Int).Mul(uint256.NewInt(1_000_000), uint256.NewInt(1e18))
	for i := 0; i < g.cfg.Accounts; i++ {
		g.newAccount(sdb, bal)
	}
	nc := g.cfg.Contracts
	if nc < 0 {
		nc = max(1, g.cfg.Accounts/20)
	}
	for i := 0; i < nc; i++ {
		g.newContract(sdb)
	}
}

func (g *gen) block(sdb *state.StateDB) {
	coinbase := g.accounts[g.pick(len(g.accounts), false)]
	fees := new(uint256.Int)
	for t := 0; t < g.cfg.TxsPerBlock; t++ {
		from := g.accounts[g.pick(len(g.accounts), true)]
		value := uint256.NewInt(1 + g.rng.Uint64N(1e15))
		fee := uint256.NewInt(21000 * (1 + g.rng.Uint64N(50e9)))
		cost := new(uint256.Int).Add(value, fee)
		if sdb.GetBalance(from).Cmp(cost) < 0 {
			continue // a failed transaction changes nothing here
		}
		sdb.SubBalance(from, cost, tracing.BalanceChangeTransfer)
		g.nonces[from]++
		sdb.SetNonce(from, g.nonces[from], tracing.NonceChangeEoACall)
		fees.Add(fees, fee)
		if g.rng.Float64() < g.cfg.NewAccountRate {
			g.newAccount(sdb, value)
		} else {
			sdb.AddBalance(g.accounts[g.pick(len(g.accounts), true)], value, tracing.BalanceChangeTransfer)
		}
	}
	if g.rng.Float64() < g.cfg.NewContractRate {
		g.newContract(sdb)
	}
	for s := 0; s < g.cfg.SlotsPerBlock; s++ {
		g.writeSlot(sdb, g.pick(len(g.contracts), false), false)
	}
	sdb.AddBalance(coinbase, fees, tracing.BalanceIncreaseRewardMineBlock)
}

// BodyKey is the key-value store key of block n's stand-in body.
func BodyKey(n uint64) []byte {
	k := make([]byte, 0, 16)
	k = append(k, "ethstate-body-"...)
	return binary.BigEndian.AppendUint64(k, n)
}

// Run commits the genesis state as block 0 and then cfg.Blocks blocks to db,
// calling onBlock after each (genesis included). db may have a freezer
// (rawdb.Open with an ancient directory), in which case pathdb keeps state
// histories there.
func Run(cfg Config, db ethdb.Database, onBlock BlockFunc) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	pcfg := *pathdb.Defaults
	pcfg.WriteBufferSize = cfg.WriteBufferMB << 20
	pcfg.StateHistory = cfg.StateHistory
	pcfg.NoAsyncFlush = true // deterministic flush points: the buffer flushes inline when full
	tdb := triedb.NewDatabase(db, &triedb.Config{PathDB: &pcfg})
	sdbase := state.NewDatabase(tdb, nil)

	g := newGen(cfg)
	root := types.EmptyRootHash
	var res Result
	for n := uint64(0); n <= cfg.Blocks; n++ {
		sdb, err := state.New(root, sdbase)
		if err != nil {
			tdb.Close()
			return res, fmt.Errorf("block %d: open state %x: %w", n, root, err)
		}
		if n == 0 {
			g.genesis(sdb)
		} else {
			g.block(sdb)
		}
		if root, err = sdb.Commit(n, true, false); err != nil {
			tdb.Close()
			return res, fmt.Errorf("block %d: commit: %w", n, err)
		}
		if cfg.BodyBytes > 0 {
			if err := db.Put(BodyKey(n), g.randBytes(cfg.BodyBytes)); err != nil {
				tdb.Close()
				return res, fmt.Errorf("block %d: body: %w", n, err)
			}
		}
		if onBlock != nil {
			if err := onBlock(n, root); err != nil {
				tdb.Close()
				return res, err
			}
		}
	}
	res = Result{Root: root, Accounts: len(g.accounts) + len(g.contracts), Contracts: len(g.contracts), Slots: g.slotTotal}
	if cfg.FinalCommit {
		if err := tdb.Commit(root, false); err != nil {
			tdb.Close()
			return res, fmt.Errorf("final commit: %w", err)
		}
	} else if err := tdb.Journal(root); err != nil {
		tdb.Close()
		return res, fmt.Errorf("journal: %w", err)
	}
	return res, tdb.Close()
}
