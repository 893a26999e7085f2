// The generator: genesis allocation, per-block transaction mix, and the
// chunked core.GenerateChain loop that writes blocks as RLP.
package chaingen

import (
	"crypto/ecdsa"
	"encoding/binary"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus"
	"github.com/ethereum/go-ethereum/consensus/beacon"
	"github.com/ethereum/go-ethereum/consensus/ethash"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/holiman/uint256"
)

const (
	genesisTime    = 1_700_000_000
	genesisBalance = 1000 // ETH per genesis account
	holderTokens   = 1_000_000_000_000
	deployedSupply = 1_000_000_000_000_000
	recentWindow   = 1024
	gwei           = 1_000_000_000
)

type token struct {
	addr    common.Address
	holders []uint32          // account indices in the order they first held the token
	bal     map[uint32]uint64 // mirror of balance[holder] (keyed lookups only, never iterated)
}

type store struct {
	addr  common.Address
	slots uint64 // keys storeKey(addr, 0..slots-1) have been written
}

// Stats are counts over the generated blocks (not genesis).
type Stats struct {
	Blocks, Txs, Gas                                    uint64
	EthTransfers, TokenTransfers, Approvals, StoreCalls uint64
	Deploys, NewAccounts, NewSlots, SlotWrites          uint64
	Withdrawals, RLPBytes                               uint64
	Elapsed                                             time.Duration
	Head                                                common.Hash
	Accounts, Tokens, Stores                            int
}

// Generator holds the workload's mirror of the chain state (nonces, token
// balances, slot counts) that picks valid transactions.
type Generator struct {
	cfg    Config
	chain  *params.ChainConfig
	rng    *rand.Rand
	signer types.Signer

	addrs  []common.Address
	keys   []*ecdsa.PrivateKey // keys[i] of addrs[i], derived on first use
	nonces []uint64
	tokens []*token
	stores []*store
	shares [5]float64 // cumulative mix

	genesis         *core.Genesis // made once in New, before the mirror moves on
	withdrawalIndex uint64
	stats           Stats
}

// New derives the genesis accounts and contracts.
func New(cfg Config) (*Generator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Generator{cfg: cfg, chain: cfg.ChainConfig(), rng: rand.New(rand.NewPCG(cfg.Seed, 0x636861696e67656e))}
	g.signer = types.LatestSigner(g.chain)
	for i := 0; i < cfg.GenesisAccounts; i++ {
		g.newAccount()
	}
	for i := 0; i < cfg.GenesisTokens; i++ {
		t := &token{addr: g.derivedAddress("token", uint64(i)), bal: map[uint32]uint64{}}
		for h := 0; h < cfg.TokenHolders; h++ {
			t.holders = append(t.holders, uint32(h))
			t.bal[uint32(h)] = holderTokens
		}
		g.tokens = append(g.tokens, t)
	}
	for i := 0; i < cfg.GenesisStores; i++ {
		g.stores = append(g.stores, &store{addr: g.derivedAddress("store", uint64(i))})
	}
	sum := 0.0
	for i, s := range []float64{cfg.EthShare, cfg.TokenTransferShare, cfg.ApproveShare, cfg.StoreShare, cfg.DeployShare} {
		sum += s
		g.shares[i] = sum
	}
	for i := range g.shares {
		g.shares[i] /= sum
	}
	g.genesis = g.makeGenesis()
	return g, nil
}

// derivedAddress is a contract or withdrawal address with no key.
func (g *Generator) derivedAddress(kind string, i uint64) common.Address {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], g.cfg.Seed)
	binary.BigEndian.PutUint64(b[8:], i)
	return common.BytesToAddress(crypto.Keccak256([]byte("chaingen "+kind), b[:]))
}

// accountKey derives account i's private key from the seed.
func accountKey(seed uint64, i uint64) *ecdsa.PrivateKey {
	var b [24]byte
	binary.BigEndian.PutUint64(b[:8], seed)
	binary.BigEndian.PutUint64(b[8:16], i)
	for try := uint64(0); ; try++ {
		binary.BigEndian.PutUint64(b[16:], try)
		if k, err := crypto.ToECDSA(crypto.Keccak256([]byte("chaingen key"), b[:])); err == nil {
			return k
		}
	}
}

func (g *Generator) newAccount() uint32 {
	i := uint64(len(g.addrs))
	k := accountKey(g.cfg.Seed, i)
	g.addrs = append(g.addrs, crypto.PubkeyToAddress(k.PublicKey))
	g.keys = append(g.keys, k)
	g.nonces = append(g.nonces, 0)
	return uint32(i)
}

// Genesis is the chain's genesis: funded accounts, tokens with holders,
// Store contracts and the EIP-4788 beacon-roots contract (as on mainnet).
func (g *Generator) Genesis() *core.Genesis { return g.genesis }

func (g *Generator) makeGenesis() *core.Genesis {
	alloc := types.GenesisAlloc{}
	bal := new(big.Int).Mul(big.NewInt(genesisBalance), big.NewInt(params.Ether))
	for i := 0; i < g.cfg.GenesisAccounts; i++ {
		alloc[g.addrs[i]] = types.Account{Balance: bal}
	}
	tcode := tokenRuntime()
	for _, t := range g.tokens {
		st := map[common.Hash]common.Hash{}
		for _, h := range t.holders {
			st[TokenBalanceSlot(g.addrs[h])] = common.BigToHash(new(big.Int).SetUint64(holderTokens))
		}
		alloc[t.addr] = types.Account{Code: tcode, Storage: st, Balance: new(big.Int)}
	}
	scode := storeRuntime()
	for _, s := range g.stores {
		alloc[s.addr] = types.Account{Code: scode, Balance: new(big.Int)}
	}
	alloc[params.BeaconRootsAddress] = types.Account{Code: params.BeaconRootsCode, Nonce: 1, Balance: new(big.Int)}
	return &core.Genesis{
		Config:     g.chain,
		Timestamp:  genesisTime,
		ExtraData:  []byte("ftlsim chaingen"),
		GasLimit:   g.cfg.GasLimit * uint64(g.cfg.Pack),
		Difficulty: big.NewInt(0),
		BaseFee:    big.NewInt(params.InitialBaseFee),
		Alloc:      alloc,
	}
}

// Engine is the post-merge engine geth import uses (beacon over a faked
// ethash, which only matters for pre-merge headers).
func Engine() consensus.Engine { return beacon.New(ethash.NewFaker()) }

// zipfPick picks an index in [0, n): Zipf by age (0 is hottest) or, with
// RecentRate, uniform among the newest recentWindow.
func (g *Generator) zipfPick(n int) int {
	if n <= 1 {
		return 0
	}
	if g.rng.Float64() < g.cfg.RecentRate {
		w := min(n, recentWindow)
		return n - 1 - g.rng.IntN(w)
	}
	z := rand.NewZipf(g.rng, g.cfg.ZipfS, 1, uint64(n-1))
	return int(z.Uint64())
}

// fees gives (tip, fee cap) for a block's base fee.
func (g *Generator) fees(baseFee *big.Int) (*big.Int, *big.Int) {
	tip := big.NewInt(int64(gwei / 10 * (1 + g.rng.IntN(20)))) // 0.1 .. 2 gwei
	feeCap := new(big.Int).Add(new(big.Int).Mul(baseFee, big.NewInt(2)), tip)
	return tip, feeCap
}

// sign makes, signs and adds a dynamic-fee transaction from account from.
func (g *Generator) send(b *core.BlockGen, from uint32, to *common.Address, value *big.Int, gas uint64, data []byte) {
	tip, feeCap := g.fees(b.BaseFee())
	tx := types.MustSignNewTx(g.keys[from], g.signer, &types.DynamicFeeTx{
		ChainID: g.chain.ChainID, Nonce: g.nonces[from], GasTipCap: tip, GasFeeCap: feeCap,
		Gas: gas, To: to, Value: value, Data: data,
	})
	b.AddTx(tx)
	g.nonces[from]++
	g.stats.Txs++
}

// canPay: does account a hold value plus gas at fee cap 2*base+2 gwei?
func (g *Generator) canPay(b *core.BlockGen, a uint32, value *big.Int, gas uint64) bool {
	need := new(big.Int).Add(new(big.Int).Mul(b.BaseFee(), big.NewInt(2)), big.NewInt(2*gwei))
	need.Mul(need, new(big.Int).SetUint64(gas))
	need.Add(need, value)
	return b.GetBalance(g.addrs[a]).ToBig().Cmp(need) >= 0
}

// sender picks a Zipf-popular account that can pay, falling back to the
// (well-funded) genesis accounts.
func (g *Generator) sender(b *core.BlockGen, value *big.Int, gas uint64) uint32 {
	for try := 0; try < 4; try++ {
		a := uint32(g.zipfPick(len(g.addrs)))
		if g.canPay(b, a, value, gas) {
			return a
		}
	}
	for {
		a := uint32(g.rng.IntN(g.cfg.GenesisAccounts))
		if g.canPay(b, a, value, gas) {
			return a
		}
	}
}

// recipient is a new account (NewAccountRate) or a Zipf-popular one.
func (g *Generator) recipient() uint32 {
	if g.rng.Float64() < g.cfg.NewAccountRate {
		g.stats.NewAccounts++
		return g.newAccount()
	}
	return uint32(g.zipfPick(len(g.addrs)))
}

func (g *Generator) ethTransfer(b *core.BlockGen) {
	value := new(big.Int).Mul(big.NewInt(int64(1+g.rng.IntN(1000))), big.NewInt(params.Ether/10000)) // 0.0001..0.1 ETH
	from := g.sender(b, value, params.TxGas)
	to := g.recipient()
	g.send(b, from, &g.addrs[to], value, params.TxGas, nil)
	g.stats.EthTransfers++
}

// tokenTransfer moves part of a holder's balance of a Zipf-popular token.
func (g *Generator) tokenTransfer(b *core.BlockGen) bool {
	const gas = 80_000
	t := g.tokens[g.zipfPick(len(g.tokens))]
	for try := 0; try < 8; try++ {
		from := t.holders[g.zipfPick(len(t.holders))]
		bal := t.bal[from]
		if bal == 0 || !g.canPay(b, from, new(big.Int), gas) {
			continue
		}
		amount := 1 + g.rng.Uint64N(max(bal/2, 1))
		to := g.recipient()
		g.send(b, from, &t.addr, new(big.Int), gas, transferData(g.addrs[to], amount))
		t.bal[from] -= amount
		if _, held := t.bal[to]; !held {
			t.holders = append(t.holders, to)
		}
		t.bal[to] += amount
		g.stats.TokenTransfers++
		return true
	}
	return false
}

// approve sets a holder's allowance for a Zipf-popular Store contract (the
// stand-in for a DEX router), mostly a new slot.
func (g *Generator) approve(b *core.BlockGen) bool {
	const gas = 70_000
	t := g.tokens[g.zipfPick(len(g.tokens))]
	owner := t.holders[g.zipfPick(len(t.holders))]
	if !g.canPay(b, owner, new(big.Int), gas) {
		return false
	}
	spender := g.stores[g.zipfPick(len(g.stores))].addr
	g.send(b, owner, &t.addr, new(big.Int), gas, approveData(spender, 1+g.rng.Uint64N(1<<40)))
	g.stats.Approvals++
	return true
}

func storeKey(s *store, j uint64) common.Hash {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], j)
	return crypto.Keccak256Hash(s.addr[:], b[:])
}

// storeCall writes 1..2*SlotsPerCall-1 slots of a Zipf-popular Store:
// new slots with NewSlotRate, else a Zipf-popular existing slot, cleared
// with ClearSlotRate.
func (g *Generator) storeCall(b *core.BlockGen) {
	s := g.stores[g.zipfPick(len(g.stores))]
	n := 1 + g.rng.IntN(2*g.cfg.SlotsPerCall-1)
	keys := make([]common.Hash, 0, n)
	vals := make([]common.Hash, 0, n)
	for k := 0; k < n; k++ {
		var v common.Hash
		binary.BigEndian.PutUint64(v[24:], 1+g.rng.Uint64())
		if s.slots == 0 || g.rng.Float64() < g.cfg.NewSlotRate {
			keys = append(keys, storeKey(s, s.slots))
			s.slots++
			g.stats.NewSlots++
		} else {
			keys = append(keys, storeKey(s, uint64(g.zipfPick(int(s.slots)))))
			if g.rng.Float64() < g.cfg.ClearSlotRate {
				v = common.Hash{}
			}
		}
		vals = append(vals, v)
	}
	gas := uint64(30_000 + n*(22_100+1_100+64*16))
	from := g.sender(b, new(big.Int), gas)
	g.send(b, from, &s.addr, new(big.Int), gas, storeData(keys, vals))
	g.stats.StoreCalls++
	g.stats.SlotWrites += uint64(n)
}

// deploy creates a new Store (two thirds) or token (one third) with code of
// about CodeBytes.
func (g *Generator) deploy(b *core.BlockGen) {
	size := g.cfg.CodeBytes/2 + g.rng.IntN(g.cfg.CodeBytes+1)
	pad := make([]byte, size)
	for i := range pad {
		pad[i] = byte(g.rng.Uint32())
	}
	isToken := g.rng.IntN(3) == 0
	var code []byte
	if isToken {
		code = tokenInit(uint256.NewInt(deployedSupply), pad)
	} else {
		code = storeInit(pad)
	}
	gas := uint64(60_000 + 16*len(code) + 200*(len(code)+64) + 50_000)
	from := g.sender(b, new(big.Int), gas)
	addr := crypto.CreateAddress(g.addrs[from], g.nonces[from])
	g.send(b, from, nil, new(big.Int), gas, code)
	if isToken {
		g.tokens = append(g.tokens, &token{addr: addr, holders: []uint32{from}, bal: map[uint32]uint64{from: deployedSupply}})
	} else {
		g.stores = append(g.stores, &store{addr: addr})
	}
	g.stats.Deploys++
}

// block fills one block: withdrawals, then the transaction mix until the
// count is reached or the gas limit is near.
func (g *Generator) block(b *core.BlockGen) {
	b.OffsetTime(int64(g.cfg.BlockTime) - 10) // the chain maker steps 10 s
	// EIP-4788: the parent beacon block root goes into the beacon-roots
	// contract (two slots per block), as geth does when it imports.
	var num [8]byte
	binary.BigEndian.PutUint64(num[:], b.Number().Uint64())
	b.SetParentBeaconRoot(crypto.Keccak256Hash([]byte("chaingen beacon root"), num[:]))
	for w := 0; w < g.cfg.WithdrawalsPerBlock; w++ {
		v := g.withdrawalIndex % uint64(g.cfg.Validators)
		b.AddWithdrawal(&types.Withdrawal{
			Validator: v,
			Address:   g.derivedAddress("validator", v),
			Amount:    10_000_000 + g.rng.Uint64N(10_000_000), // gwei: 0.01..0.02 ETH, a sweep's typical reward
		})
		g.withdrawalIndex++
		g.stats.Withdrawals++
	}
	mean := g.cfg.TxsPerBlock * g.cfg.Pack
	n := mean
	if mean > 0 {
		n = mean*3/4 + g.rng.IntN(mean/2+1)
	}
	for i := 0; i < n; i++ {
		if b.Gas() < 2_000_000 {
			break
		}
		x := g.rng.Float64()
		switch {
		case x < g.shares[0]:
			g.ethTransfer(b)
		case x < g.shares[1]:
			if !g.tokenTransfer(b) {
				g.ethTransfer(b)
			}
		case x < g.shares[2]:
			if !g.approve(b) {
				g.ethTransfer(b)
			}
		case x < g.shares[3]:
			g.storeCall(b)
		default:
			g.deploy(b)
		}
	}
}

// BlockSink receives each block's RLP encoding, in block order.
type BlockSink func(number uint64, enc []byte) error

// WriterSink writes every block to w (one RLP stream, as geth import reads).
func WriterSink(w io.Writer) BlockSink {
	return func(_ uint64, enc []byte) error { _, err := w.Write(enc); return err }
}

// Run gives cfg.Blocks blocks after genesis to sink as RLP. db holds the
// generator's state (hash scheme, every block's trie is kept: use a disk
// database for long chains). progress (may be nil) is called after each chunk.
func (g *Generator) Run(db ethdb.Database, sink BlockSink, progress func(Stats)) (st Stats, err error) {
	start := time.Now()
	// The chain maker panics on an invalid transaction or state error; the
	// generator only makes valid ones, so a panic is a bug: report it.
	defer func() {
		if r := recover(); r != nil {
			st, err = g.stats, fmt.Errorf("chain maker failed at block %d: %v", g.stats.Blocks+1, r)
		}
	}()
	tdb := triedb.NewDatabase(db, triedb.HashDefaults)
	parent, err := g.Genesis().Commit(db, tdb)
	if err != nil {
		return g.stats, fmt.Errorf("genesis: %w", err)
	}
	if err := tdb.Close(); err != nil {
		return g.stats, err
	}
	engine := Engine()
	for done := uint64(0); done < g.cfg.Blocks; {
		n := min(uint64(g.cfg.ChunkBlocks), g.cfg.Blocks-done)
		blocks, _ := core.GenerateChain(g.chain, parent, engine, db, int(n), func(i int, b *core.BlockGen) { g.block(b) })
		for _, bl := range blocks {
			enc, err := rlp.EncodeToBytes(bl)
			if err != nil {
				return g.stats, err
			}
			if err := sink(bl.NumberU64(), enc); err != nil {
				return g.stats, fmt.Errorf("write blocks: %w", err)
			}
			g.stats.RLPBytes += uint64(len(enc))
			g.stats.Gas += bl.GasUsed()
		}
		parent = blocks[len(blocks)-1]
		done += n
		g.stats.Blocks = done
		g.stats.Head = parent.Hash()
		g.stats.Elapsed = time.Since(start)
		g.stats.Accounts, g.stats.Tokens, g.stats.Stores = len(g.addrs), len(g.tokens), len(g.stores)
		if progress != nil {
			progress(g.stats)
		}
	}
	g.stats.Elapsed = time.Since(start)
	return g.stats, nil
}
