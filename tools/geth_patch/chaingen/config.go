// Config of the chain generator and the chain rules of the generated chain.
package chaingen

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/params"
)

// Config shapes the chain. Defaults() gives the mainnet-like mix that
// docs/geth_study.md explains (with the sources of its numbers).
type Config struct {
	Blocks uint64 // blocks after genesis
	Seed   uint64 // every choice (keys, picks, amounts) follows from it

	GenesisAccounts int // funded EOAs at genesis
	GenesisTokens   int // ERC-20 tokens at genesis
	TokenHolders    int // holders of each genesis token
	GenesisStores   int // storage-heavy contracts at genesis
	Validators      int // withdrawal addresses swept in order, WithdrawalsPerBlock per block

	TxsPerBlock         int     // mean transactions per block (uniform within +-25%)
	Pack                int     // each block carries Pack blocks' worth of transactions (and Pack x gas limit)
	EthShare            float64 // shares of the transaction mix (normalised)
	TokenTransferShare  float64
	ApproveShare        float64
	StoreShare          float64
	DeployShare         float64
	NewAccountRate      float64 // chance a transfer (ETH or token) pays a brand-new account
	SlotsPerCall        int     // mean (key, value) writes per storage-heavy call (1..2*mean-1)
	NewSlotRate         float64 // chance a storage write creates a new slot
	ClearSlotRate       float64 // chance a storage write of an existing slot clears it
	ZipfS               float64 // Zipf exponent of account/contract/slot popularity (> 1)
	RecentRate          float64 // chance a pick goes to one of the 1024 newest accounts
	CodeBytes           int     // mean code size of deployed contracts (uniform 0.5x..1.5x)
	WithdrawalsPerBlock int     // consensus-layer withdrawals per block (mainnet: 16)
	GasLimit            uint64  // block gas limit (times Pack)
	BlockTime           uint64  // seconds between blocks
	ChainID             uint64
	ChunkBlocks         int // blocks per core.GenerateChain call (memory bound)
}

// Defaults is the mainnet-like configuration.
func Defaults() Config {
	return Config{
		Blocks:              1000,
		GenesisAccounts:     10000,
		GenesisTokens:       20,
		TokenHolders:        2000,
		GenesisStores:       50,
		Validators:          20000,
		TxsPerBlock:         200,
		Pack:                1,
		EthShare:            0.38,
		TokenTransferShare:  0.30,
		ApproveShare:        0.07,
		StoreShare:          0.24,
		DeployShare:         0.01,
		NewAccountRate:      0.10,
		SlotsPerCall:        4,
		NewSlotRate:         0.35,
		ClearSlotRate:       0.05,
		ZipfS:               1.1,
		RecentRate:          0.1,
		CodeBytes:           4096,
		WithdrawalsPerBlock: 16,
		GasLimit:            60_000_000,
		BlockTime:           12,
		ChainID:             271828,
		ChunkBlocks:         256,
	}
}

// Validate checks the configuration; the error names every bad field.
func (c *Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.GenesisAccounts < 2 {
		bad("genesis-accounts must be >= 2 (got %d)", c.GenesisAccounts)
	}
	if c.GenesisTokens < 1 || c.GenesisStores < 1 {
		bad("genesis-tokens and genesis-stores must be >= 1 (got %d, %d)", c.GenesisTokens, c.GenesisStores)
	}
	if c.TokenHolders < 1 || c.TokenHolders > c.GenesisAccounts {
		bad("token-holders must be 1..genesis-accounts (got %d)", c.TokenHolders)
	}
	if c.Validators < 1 || c.WithdrawalsPerBlock < 0 || c.WithdrawalsPerBlock > 16 {
		bad("validators must be >= 1 and withdrawals 0..16 (got %d, %d)", c.Validators, c.WithdrawalsPerBlock)
	}
	if c.TxsPerBlock < 0 || c.Pack < 1 {
		bad("txs must be >= 0 and pack >= 1 (got %d, %d)", c.TxsPerBlock, c.Pack)
	}
	shares := []float64{c.EthShare, c.TokenTransferShare, c.ApproveShare, c.StoreShare, c.DeployShare}
	sum := 0.0
	for _, s := range shares {
		if s < 0 {
			bad("mix shares must be >= 0")
		}
		sum += s
	}
	if sum <= 0 {
		bad("mix shares sum to 0")
	}
	for name, r := range map[string]float64{"new-account-rate": c.NewAccountRate, "new-slot-rate": c.NewSlotRate,
		"clear-slot-rate": c.ClearSlotRate, "recent-rate": c.RecentRate} {
		if r < 0 || r > 1 {
			bad("%s must be in [0, 1] (got %g)", name, r)
		}
	}
	if c.SlotsPerCall < 1 || c.SlotsPerCall > 200 {
		bad("slots-per-call must be 1..200 (got %d)", c.SlotsPerCall)
	}
	if !(c.ZipfS > 1) {
		bad("zipf must be > 1 (got %g)", c.ZipfS)
	}
	if c.CodeBytes < 0 || c.CodeBytes > 16000 {
		bad("code-bytes must be 0..16000 (half of the 24576-byte limit, so 1.5x stays under it) (got %d)", c.CodeBytes)
	}
	if c.GasLimit < 1_000_000 || c.BlockTime < 1 || c.ChainID < 1 || c.ChunkBlocks < 1 {
		bad("gas-limit >= 1e6, block-time, chain-id and chunk must be positive")
	}
	return errors.Join(errs...)
}

// ChainConfig is post-merge mainnet's rules up to Cancun, the newest fork
// that both geth v1.14.8 (the study's) and v1.16.x implement, all active
// from genesis.
func (c *Config) ChainConfig() *params.ChainConfig {
	zero := uint64(0)
	return &params.ChainConfig{
		ChainID:                 new(big.Int).SetUint64(c.ChainID),
		HomesteadBlock:          big.NewInt(0),
		EIP150Block:             big.NewInt(0),
		EIP155Block:             big.NewInt(0),
		EIP158Block:             big.NewInt(0),
		ByzantiumBlock:          big.NewInt(0),
		ConstantinopleBlock:     big.NewInt(0),
		PetersburgBlock:         big.NewInt(0),
		IstanbulBlock:           big.NewInt(0),
		MuirGlacierBlock:        big.NewInt(0),
		BerlinBlock:             big.NewInt(0),
		LondonBlock:             big.NewInt(0),
		ArrowGlacierBlock:       big.NewInt(0),
		GrayGlacierBlock:        big.NewInt(0),
		MergeNetsplitBlock:      big.NewInt(0),
		ShanghaiTime:            &zero,
		CancunTime:              &zero,
		TerminalTotalDifficulty: big.NewInt(0),
		BlobScheduleConfig:      &params.BlobScheduleConfig{Cancun: params.DefaultCancunBlobConfig},
	}
}
