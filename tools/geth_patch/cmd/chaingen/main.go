// Command chaingen writes a chain of valid, signed, mainnet-like blocks for
// `geth init` + `geth import` (see tools/geth_patch/chaingen and
// docs/geth_study.md):
//
//	chaingen --out DIR --blocks N [--seed S] [mix flags]
//
// DIR gets genesis.json, blocks.rlp (or, with --file-blocks M, blocks-0001.rlp,
// blocks-0002.rlp, ... of M blocks each, for imports in several geth runs)
// and chaingen.json (configuration, counts, rates). DIR must not exist yet (nothing is ever overwritten); the
// files are written under DIR.partial and renamed at the end, so a DIR that
// exists is complete.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/ethdb/pebble"
	"github.com/ftlsim/geth_patch/chaingen"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "chaingen: error:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	c := chaingen.Defaults()
	flag := flag.NewFlagSet("chaingen", flag.ContinueOnError)
	out := flag.String("out", "", "output directory (must not exist)")
	genDB := flag.String("gen-db", "", "directory for the generator's own state database (Pebble, removed at the end); default: in memory (fine up to a few thousand blocks)")
	quiet := flag.Bool("quiet", false, "no progress lines")
	fileBlocks := flag.Uint64("file-blocks", 0, "start a new blocks-NNNN.rlp every this many blocks (0: one blocks.rlp)")
	flag.Uint64Var(&c.Blocks, "blocks", c.Blocks, "blocks after genesis")
	flag.Uint64Var(&c.Seed, "seed", c.Seed, "seed")
	flag.IntVar(&c.GenesisAccounts, "genesis-accounts", c.GenesisAccounts, "funded accounts at genesis")
	flag.IntVar(&c.GenesisTokens, "genesis-tokens", c.GenesisTokens, "ERC-20 tokens at genesis")
	flag.IntVar(&c.TokenHolders, "token-holders", c.TokenHolders, "holders of each genesis token")
	flag.IntVar(&c.GenesisStores, "genesis-stores", c.GenesisStores, "storage-heavy contracts at genesis")
	flag.IntVar(&c.Validators, "validators", c.Validators, "withdrawal addresses swept in order")
	flag.IntVar(&c.TxsPerBlock, "txs", c.TxsPerBlock, "mean transactions per block")
	flag.IntVar(&c.Pack, "pack", c.Pack, "each block carries this many blocks' worth of transactions (gas limit scaled alike)")
	flag.Float64Var(&c.EthShare, "eth-share", c.EthShare, "share of ETH transfers")
	flag.Float64Var(&c.TokenTransferShare, "token-share", c.TokenTransferShare, "share of ERC-20 transfers")
	flag.Float64Var(&c.ApproveShare, "approve-share", c.ApproveShare, "share of ERC-20 approvals")
	flag.Float64Var(&c.StoreShare, "store-share", c.StoreShare, "share of storage-heavy calls")
	flag.Float64Var(&c.DeployShare, "deploy-share", c.DeployShare, "share of contract deployments")
	flag.Float64Var(&c.NewAccountRate, "new-account-rate", c.NewAccountRate, "chance a transfer pays a new account")
	flag.IntVar(&c.SlotsPerCall, "slots-per-call", c.SlotsPerCall, "mean slot writes per storage-heavy call")
	flag.Float64Var(&c.NewSlotRate, "new-slot-rate", c.NewSlotRate, "chance a slot write creates a new slot")
	flag.Float64Var(&c.ClearSlotRate, "clear-slot-rate", c.ClearSlotRate, "chance a write of an existing slot clears it")
	flag.Float64Var(&c.ZipfS, "zipf", c.ZipfS, "Zipf exponent of popularity (> 1)")
	flag.Float64Var(&c.RecentRate, "recent-rate", c.RecentRate, "chance a pick goes to the 1024 newest accounts")
	flag.IntVar(&c.CodeBytes, "code-bytes", c.CodeBytes, "mean code size of deployed contracts")
	flag.IntVar(&c.WithdrawalsPerBlock, "withdrawals", c.WithdrawalsPerBlock, "withdrawals per block (0..16)")
	flag.Uint64Var(&c.GasLimit, "gas-limit", c.GasLimit, "block gas limit (before --pack)")
	flag.Uint64Var(&c.BlockTime, "block-time", c.BlockTime, "seconds between blocks")
	flag.Uint64Var(&c.ChainID, "chain-id", c.ChainID, "chain ID")
	flag.IntVar(&c.ChunkBlocks, "chunk", c.ChunkBlocks, "blocks per core.GenerateChain call")
	if err := flag.Parse(args); err != nil {
		return err
	}
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", flag.Arg(0))
	}
	if *out == "" {
		return fmt.Errorf("--out DIR is required")
	}
	if _, err := os.Lstat(*out); err == nil {
		return fmt.Errorf("%s exists; chaingen never overwrites", *out)
	}
	partial := *out + ".partial"
	if _, err := os.Lstat(partial); err == nil {
		return fmt.Errorf("%s exists (an earlier run's incomplete output); remove it", partial)
	}
	g, err := chaingen.New(c)
	if err != nil {
		return err
	}
	var db ethdb.Database
	if *genDB != "" {
		if _, err := os.Lstat(*genDB); err == nil {
			return fmt.Errorf("--gen-db %s exists; give a new directory", *genDB)
		}
		kv, err := pebble.New(*genDB, 512, 256, "", false)
		if err != nil {
			return fmt.Errorf("--gen-db %s: %w", *genDB, err)
		}
		db = rawdb.NewDatabase(kv)
		defer os.RemoveAll(*genDB)
	} else {
		db = rawdb.NewMemoryDatabase()
	}
	defer db.Close()

	if err := os.Mkdir(partial, 0o755); err != nil {
		return err
	}
	gj, err := chaingen.GenesisJSON(g.Genesis())
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(partial, "genesis.json"), gj, 0o644); err != nil {
		return err
	}
	var (
		f *os.File
		w *bufio.Writer
	)
	closeFile := func() error {
		if f == nil {
			return nil
		}
		err := w.Flush()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		f = nil
		return err
	}
	defer closeFile()
	sink := func(number uint64, enc []byte) error {
		if f == nil || *fileBlocks > 0 && (number-1)%*fileBlocks == 0 {
			if err := closeFile(); err != nil {
				return err
			}
			name := "blocks.rlp"
			if *fileBlocks > 0 {
				name = fmt.Sprintf("blocks-%04d.rlp", 1 + (number-1) / *fileBlocks)
			}
			var err error
			if f, err = os.OpenFile(filepath.Join(partial, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err != nil {
				return err
			}
			w = bufio.NewWriterSize(f, 1<<20)
		}
		_, err := w.Write(enc)
		return err
	}
	last := time.Now()
	st, err := g.Run(db, sink, func(s chaingen.Stats) {
		if *quiet || time.Since(last) < 10*time.Second && s.Blocks < c.Blocks {
			return
		}
		last = time.Now()
		fmt.Fprintf(os.Stderr, "chaingen: block %d/%d, %d txs, %.1f blocks/s, %d accounts, %d new slots, %.1f MB RLP\n",
			s.Blocks, c.Blocks, s.Txs, float64(s.Blocks)/s.Elapsed.Seconds(), s.Accounts, s.NewSlots, float64(s.RLPBytes)/1e6)
	})
	if cerr := closeFile(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	sec := st.Elapsed.Seconds()
	report := map[string]any{
		"version": 1, "config": c, "head": st.Head.Hex(), "blocks": st.Blocks, "txs": st.Txs, "gas_used": st.Gas,
		"eth_transfers": st.EthTransfers, "token_transfers": st.TokenTransfers, "approvals": st.Approvals,
		"store_calls": st.StoreCalls, "deploys": st.Deploys, "new_accounts": st.NewAccounts,
		"new_slots": st.NewSlots, "slot_writes": st.SlotWrites, "withdrawals": st.Withdrawals,
		"rlp_bytes": st.RLPBytes, "accounts": st.Accounts, "tokens": st.Tokens, "stores": st.Stores,
		"gas_per_block": float64(st.Gas) / float64(max(st.Blocks, 1)), "txs_per_block": float64(st.Txs) / float64(max(st.Blocks, 1)),
		"elapsed_s": sec, "blocks_per_s": float64(st.Blocks) / sec,
	}
	rj, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return err
	}
	// chaingen.json holds the run's timing, so it is the one file that
	// differs between two runs with the same seed.
	if err := os.WriteFile(filepath.Join(partial, "chaingen.json"), append(rj, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Rename(partial, *out); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "chaingen: wrote %s: %d blocks, head %s, %.1f s\n", *out, st.Blocks, st.Head.Hex(), sec)
	return nil
}
